#!/usr/bin/env bats
# -o html: the report pages of preempt-plan and apiq-sim, checked as a reader
# gets them - valid HTML (tidy), rendered in headless Chromium with JavaScript
# off and on (test/render-html), no console message, the DOM holding what
# the records say, and names with markup escaped. Screenshots are kept in
# $PK_ARTIFACTS (default ${TMPDIR:-/tmp}/preemptkit-artifacts), one
# directory per page.

load test_helper/common
bats_require_minimum_version 1.5.0

setup() {
	command -v chromium >/dev/null || skip "chromium is not installed (share/debian-packages)"
	command -v tidy >/dev/null || skip "tidy is not installed (share/debian-packages)"
	ARTIFACTS=${PK_ARTIFACTS:-${TMPDIR:-/tmp}/preemptkit-artifacts}/$(basename "$BIN")
	mkdir -p "$ARTIFACTS"
}

# valid PAGE: tidy finds nothing to say about it (HTML5).
valid() {
	run tidy -errors -q "$1"
	assert_success
	assert_output ''
}

# render PAGE NAME [W,H]: render it (at W x H px), keep the screenshot, fail on console messages.
render() {
	OUT="$ARTIFACTS/$2"
	rm -rf "$OUT"
	run "$ROOT/test/render-html" --out "$OUT" ${3:+--size "$3"} "$1"
	[ "$status" -eq 0 ] || fail "render-html $status: $(cat "$OUT/console.log" 2>/dev/null)"
	[ "$(head -c 8 "$OUT/screenshot.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "no PNG"
	NOJS=$(cat "$OUT/dom-nojs.html") JS=$(cat "$OUT/dom-js.html")
	# the script ran with JavaScript on, and only then
	[[ $JS == *'<html lang="en" class="js">'* ]] || fail "the page's script did not run"
	[[ $NOJS != *'class="js"'* ]] || fail "the script ran with JavaScript off"
}

# The JSON array a page embeds in script#ID.
embedded() {
	sed -n "/<script type=\"application\/json\" id=\"$2\">/,/]<\/script>/p" "$1" |
		sed "1s/.*id=\"$2\">//; \$s/<\/script>.*//"
}

count() { grep -o -- "$2" <<<"$1" | wc -l; }

@test "victims | preempt-plan -o html: the sample plan, readable with JavaScript off and on" {
	page="$BATS_TEST_TMPDIR/plan.html"
	victims --explain --preemptor "$SAMPLE/preemptor.yaml" "$SAMPLE/cluster.json" | preempt-plan -o html >"$page"
	valid "$page"
	render "$page" pipeline
	for dom in "$NOJS" "$JS"; do
		[[ $dom == *'<strong id="count-victims">2</strong>'* ]] || fail "victims count"
		[[ $dom == *'<strong id="count-result-Preempt">1</strong>'* ]] || fail "result count"
		[[ $dom == *'<li>batch/report-29871540-h4j8l</li>'* ]] || fail "a victim's name"
		[[ $dom == *'<td>Job report-29871540</td><td class="n">1</td><td>batch-low</td>'* ]] || fail "impact by owner"
		# the chosen node first, beside the other candidates
		[[ $dom == *'<td class="n">1<span class="tag">chosen</span></td><td>demo-worker4</td>'* ]] || fail "choice"
		[[ $dom == *'<strong>Why it won:</strong> smallest priority sum</p>'* ]] || fail "why it won"
		[ "$(count "$dom" '<tr><td class="n">[234]</td><td>demo-worker')" -eq 3 ] || fail "other candidates"
		# and why the other nodes are none (victims --explain)
		[[ $dom == *'<tr><td class="n">1</td><td class="reason">TaintToleration: node(s) had untolerated taint(s) (Filter UnschedulableAndUnresolvable; Preemption is not helpful for scheduling; untolerated: nvidia.com/gpu=present:NoSchedule)'* ]] ||
			fail "the nodes that are no candidate, a group per taint"
		# one SVG per touched node: the plan touches demo-worker4 only
		[ "$(count "$dom" '<svg class="bars"')" -eq 1 ] || fail "bars"
		[[ $dom == *'id="node-demo-worker4"'* ]] || fail "the touched node"
		[[ $dom == *'the other 5 node(s) of the cluster are untouched'* ]] || fail "untouched nodes"
	done
	# the script adds sorting and filtering, nothing else
	[[ $JS == *'<button type="button" class="sort">'* && $JS == *'<input type="search" class="filter"'* ]]
	[[ $NOJS != *'<button'* && $NOJS != *'<input'* ]]
	# the records are in the page
	embedded "$page" preemptkit-records | jq -e 'map(select(.kind == "PreemptionPlan"))[0].nominatedNodeName == "demo-worker4"'
}

@test "victims --explain | preempt-plan -o html: nodes that lack devices, upstream's reason and preemptkit's detail in columns of their own" {
	src="$FIX/victims/DRA-explain-says-per-node-why-devices-are-lacking-beside-upstream-s-reason"
	page="$BATS_TEST_TMPDIR/dra-explain.html"
	victims --explain --preemptor "$src/preemptor.yaml" "$src/cluster.yaml" | preempt-plan -o html >"$page" || true
	valid "$page"
	render "$page" dra-explain
	for dom in "$NOJS" "$JS"; do
		[[ $dom == *"Devices: preemptkit's detail (not the scheduler's)"* ]] || fail "the detail column"
		# upstream's reason alone in its cell, the detail in the next but one
		[[ $dom == *'<td class="reason">DynamicResources: cannot allocate all claims (Filter UnschedulableAndUnresolvable; Preemption is not helpful for scheduling)</td><td>n-taint</td><td class="reason">claim default/trainer-gpus, request gpus: it asks for 2 device(s)'*'(example.com/unhealthy=ecc:NoSchedule)</td>'* ]] ||
			fail "a tainted node's row"
		[ "$(count "$dom" '<td class="reason">DynamicResources: cannot allocate all claims')" -eq 5 ] || fail "five nodes"
		[[ $dom != *'id="choice-table"'* ]] || fail "an empty candidates table"
	done
}

@test "preempt-plan --simulate -o html: the counts and nodes of the NDJSON records, reasons grouped" {
	json="$BATS_TEST_TMPDIR/sim.ndjson" page="$BATS_TEST_TMPDIR/sim.html"
	# 1.36's gang answer (#138757) takes the whole etl group, which the page shows
	preempt-plan --simulate --kubernetes-version 1.36 "$SAMPLE/gang/cluster.json" >"$json" 2>/dev/null || [ $? -eq 1 ]
	preempt-plan --simulate --kubernetes-version 1.36 -o html "$SAMPLE/gang/cluster.json" >"$page" 2>/dev/null || [ $? -eq 1 ]
	valid "$page"
	render "$page" simulate
	plans=$(jq -s 'map(select(.kind == "PreemptionPlan")) | length' "$json")
	victims=$(jq -s 'map(select(.kind == "PreemptionPlan") | .victims | length) | add' "$json")
	nodes=$(jq -s '[.[] | select(.kind == "PreemptionPlan") | (.nodeResources[]?.node, .victims[].node,
		.nominatedNodeName // empty, .node // empty, .placements[]?.node)] | unique | length' "$json")
	[ "$plans" -gt 10 ] && [ "$victims" -gt 0 ] && [ "$nodes" -gt 0 ]
	for dom in "$NOJS" "$JS"; do
		[[ $dom == *"<strong id=\"count-units\">$plans</strong>"* ]] || fail "plans"
		[[ $dom == *"<strong id=\"count-victims\">$victims</strong>"* ]] || fail "victims"
		[[ $dom == *'<strong id="count-cascades">4</strong>'* ]] || fail "cascades"
		[ "$(count "$dom" '<svg class="bars"')" -eq "$nodes" ] || fail "one SVG per touched node ($nodes)"
		# a reason grouped (the etl gang's recreated members are one unit, another reason)
		[[ $dom == *'<td>Filter</td><td class="reason">Insufficient cpu</td><td class="n">1</td><td class="n">16</td>'* ]] ||
			fail "grouped reason"
		[[ $dom == *'<a href="#podgroup-ml.train">podgroup ml/train</a>'* ]] || fail "a link to the gang's plan"
		[[ $dom == *'<tr id="podgroup-ml.train">'* ]] || fail "the gang's anchor"
		# the gang preempts the whole etl group
		[[ $dom == *'<tr><td>default/etl</td><td class="n">4</td><td><a href="#podgroup-ml.train">'* ]] ||
			fail "the pod group that loses pods"
	done
}

@test "-o html: names and messages with markup come out escaped, in the page and in its data" {
	cluster="$BATS_TEST_TMPDIR/hostile.json" page="$BATS_TEST_TMPDIR/hostile.html"
	bad_name='</script><script>console.error("pwned")</script>'
	bad_ns=$'a&b"c\'d\u2028e'
	bad_class='<b onmouseover="console.error(1)">preemptible</b>'
	bad_node='demo-worker4<img src=x onerror=console.error(2)>'
	jq --arg n "$bad_name" --arg ns "$bad_ns" --arg c "$bad_class" --arg node "$bad_node" '
		.items |= map(
			if .metadata.name == "notebook-dave" then .metadata.name = $n
			elif .metadata.name == "report-29871540-h4j8l" then .metadata.namespace = $ns else . end
			| if .metadata.name == "preemptible" or .spec.priorityClassName == "preemptible"
			  then (if .kind == "PriorityClass" then .metadata.name = $c else .spec.priorityClassName = $c end) else . end
			| if .metadata.name == "demo-worker4" then .metadata.name = $node
			  elif .spec.nodeName == "demo-worker4" then .spec.nodeName = $node else . end)' \
		"$SAMPLE/cluster.json" >"$cluster"
	victims --preemptor "$SAMPLE/preemptor.yaml" "$cluster" | preempt-plan -o html >"$page"
	valid "$page"
	raw=$(cat "$page")
	[[ $raw != *'<script>console'* && $raw != *'<b onmouseover'* && $raw != *'<img src=x'* ]]
	[[ $raw == *'&lt;/script&gt;&lt;script&gt;console.error(&quot;pwned&quot;)&lt;/script&gt;'* ]]
	[[ $raw == *'a&amp;b&quot;c&#39;d'* ]]
	# in the embedded JSON U+2028 is written as an escape (a raw one ends a JavaScript string literal)
	data=$(embedded "$page" preemptkit-records)
	[[ $data != *$'\u2028'* && $data == *'\u2028'* ]]
	render "$page" hostile
	[ "$(count "$JS" '<script')" -eq 2 ] || fail "a script element was injected"
	[ "$(count "$JS" '<img')" -eq 0 ] && [ "$(count "$JS" '<b ')" -eq 0 ]
	[[ $JS == *'&lt;/script&gt;&lt;script&gt;console.error("pwned")&lt;/script&gt;'* ]]
	# the data holds the names as they were
	embedded "$page" preemptkit-records | jq -e --arg n "$bad_name" --arg ns "$bad_ns" --arg c "$bad_class" --arg node "$bad_node" '
		map(select(.kind == "PreemptionPlan"))[0] as $p
		| ($p.victims | map(.name) | index($n)) != null
		and ($p.victims | map(.namespace) | index($ns)) != null
		and ($p.victims | map(.priorityClassName) | index($c)) != null
		and $p.nominatedNodeName == $node'
}

@test "preempt-plan --simulate --apply -o html: the applied objects, as their records say" {
	page="$BATS_TEST_TMPDIR/apply.html" json="$BATS_TEST_TMPDIR/apply.ndjson"
	preempt-plan --simulate "$SAMPLE/gang/cluster.json" --apply "$ROOT/share/examples/rollout" >"$json" 2>/dev/null || true
	preempt-plan --simulate -o html "$SAMPLE/gang/cluster.json" --apply "$ROOT/share/examples/rollout" >"$page" 2>/dev/null || true
	valid "$page"
	n=$(jq -s 'map(select(.kind == "AppliedObject")) | length' "$json")
	[ "$n" -gt 0 ]
	raw=$(cat "$page")
	[ "$(count "$raw" '<tr><td>Deployment shop/checkout</td>')" -eq 1 ]
	[ "$(sed -n '/id="applied-table"/,/<\/table>/p' "$page" | grep -c '^<tr><td>')" -eq "$n" ]
	embedded "$page" preemptkit-records | jq -e --argjson n "$n" 'map(select(.kind == "AppliedObject")) | length == $n'
}

@test "-o html shows AppliedObject records and the plan's criterion (hand-made records)" {
	[ -x "${UNITDIR:-}/test_report" ] || skip "the unit tests are not built (make unit)"
	page="$BATS_TEST_TMPDIR/handmade.html"
	run "$UNITDIR/test_report" "$page"
	assert_success
	valid "$page"
	render "$page" handmade
	for dom in "$NOJS" "$JS"; do
		[[ $dom == *'<section id="applied">'* && $dom == *'<td>Deployment shop/checkout</td><td>deploy.yaml:3</td><td>create</td>'* ]] ||
			fail "applied objects"
		[[ $dom == *'<td>fewest PDB violations</td>'* ]] || fail "criterion"
		[[ $dom == *'<td>batch/report-pdb</td><td class="n">1</td>'* ]] || fail "PDB violation"
	done
}

@test "apiq-sim run --compare -o html: each gate setting's timeline side by side" {
	page="$BATS_TEST_TMPDIR/apiq.html"
	run -0 apiq-sim run --pods 300 --preemptor-share 0.2 --qps 200 --burst 50 --latency 20ms --compare -o html
	printf '%s\n' "$output" >"$page"
	valid "$page"
	render "$page" apiq-compare
	for dom in "$NOJS" "$JS"; do
		[ "$(count "$dom" '<td>Scheduler<wbr>Async<wbr>Preemption=')" -eq 4 ] || fail "four runs"
		for m in "Scheduling throughput" "Pending API calls per call type" "Time to bind, p50 and p99" \
			"Client rate limiter wait per request" "Preempting set"; do
			[[ $dom == *"<h3>$m"* ]] || fail "no plots of $m"
		done
		# throughput and time to bind have data in every setting: a line each
		[ "$(count "$dom" '<path class="line s0"')" -ge 8 ] || fail "lines"
	done
	embedded "$page" apiq-sim-summaries | jq -e 'length == 4 and all(.[]; (.series.t | length) > 0
		and (.series.throughput | length) == (.series.t | length) and .series.window > 0)'
}

@test "html is a format of preempt-plan and apiq-sim run only, and the man pages and completions say so" {
	run -2 apiq-sim step -o html /dev/null
	assert_output --partial 'html are for run'
	run -2 victims -o html "$SAMPLE/cluster.json"
	run -2 apiq-sim run --pods 10 -o html --timeline -
	assert_output --partial 'would both write to standard output'
	for t in preempt-plan apiq-sim; do
		formats=$($t --help | sed -n 's/^Output formats: \([a-z,]*\) .*/\1/p' | tr , ' ')
		[[ " $formats " == *" html "* ]] || fail "$t --help lacks html ($formats)"
		for f in $formats; do
			grep -qE "^\.Op Fl o (Ar|Cm) .*\<$f\>" "$ROOT/share/man/man1/$t.1" || fail "man page of $t lacks $f"
			grep -qE "compgen -W '[^']*\<$f\>" "$ROOT/completions/bash/$t" || fail "bash completion of $t lacks $f"
			grep -qE "format:\([^)]*\<$f\>" "$ROOT/completions/zsh/_$t" || fail "zsh completion of $t lacks $f"
			grep -qE -- "-l output -x -a '[^']*\<$f\>" "$ROOT/completions/fish/$t.fish" || fail "fish completion of $t lacks $f"
		done
	done
	preempt-plan --simulate --help | grep -q '^Output formats: json,table,wide,html '
	preempt-plan --replay --help | grep -q '^Output formats: json,table,html '
}

# fits PAGE NAME [WIDTH...]: rendered at each width (default 1000, 1280 and
# 1600 px), with JavaScript off and on, nothing runs off the right edge
# (test/render-html lists the outermost elements that do: a table too wide,
# a figure clipped; a wide table that scrolls in its own box does not).
fits() {
	local page=$1 name=$2 widths
	shift 2
	widths=${*:-1000 1280 1600}
	set -- "$page" "$name"
	for w in $widths; do
		local out="$ARTIFACTS/$2-$w"
		rm -rf "$out"
		run "$ROOT/test/render-html" --out "$out" --size "$w,1200" "$1"
		[ "$status" -eq 0 ] || fail "render-html $status at $w px: $(cat "$out/console.log" 2>/dev/null)"
		for js in nojs js; do
			read -r scroll inner <"$out/overflow-$js.txt"
			[ "$inner" -eq "$w" ] && [ "$scroll" -le "$inner" ] && [ "$(wc -l <"$out/overflow-$js.txt")" -le 1 ] ||
				fail "$2 at $w px ($js): runs off the page: $(cat "$out/overflow-$js.txt")"
		done
	done
}

@test "-o html: the pages hold from 800 to 1600 px (preempt-plan's and apiq-sim's), with long node and pod names too" {
	long="$BATS_TEST_TMPDIR/long.json" page="$BATS_TEST_TMPDIR/long.html"
	# names as clouds give them: node names of 40 characters, pod names with two hashes
	jq '.items |= map(
		if .kind == "Node" then .metadata.name = "ip-10-0-1-\(.metadata.name | ltrimstr("node-")).eu-west-1.compute.internal" else . end
		| if .kind == "Pod" then (.metadata.name += "-7c9d5b8f4d-x2v9q")
			| (if .spec.nodeName then .spec.nodeName = "ip-10-0-1-\(.spec.nodeName | ltrimstr("node-")).eu-west-1.compute.internal" else . end)
		  else . end)' "$SAMPLE/gang/cluster.json" >"$long"
	preempt-plan --simulate -o html "$long" >"$page" 2>/dev/null || [ $? -eq 1 ]
	valid "$page"
	# at 800 px the wide tables scroll in their own box, the page does not
	fits "$page" long-names 800 1000 1280 1600
	preempt-plan --simulate -o html "$SAMPLE/gang/cluster.json" >"$page" 2>/dev/null || [ $? -eq 1 ]
	fits "$page" simulate 800 1000 1280 1600
	victims --explain --preemptor "$SAMPLE/preemptor.yaml" "$SAMPLE/cluster.json" | preempt-plan -o html >"$page"
	fits "$page" pipeline 800 1000 1280 1600
	apiq-sim run --pods 300 --preemptor-share 0.2 --qps 200 --burst 50 --latency 20ms --compare -o html >"$page"
	fits "$page" apiq-compare 800 1000 1280 1600
	apiq-sim run --pods 300 --preemptor-share 0.2 --qps 200 --burst 50 --latency 20ms -o html >"$page"
	fits "$page" apiq-run 800 1000 1280 1600
}

@test "-o html: 'Impact by owner' counts the namespaces of the workloads, met in any order" {
	cluster="$BATS_TEST_TMPDIR/ns.json" page="$BATS_TEST_TMPDIR/ns.html"
	# the victims' workloads are met as nightly, default, nightly: two namespaces
	jq '.items |= map(if .kind == "Pod" and (.metadata.name | test("^(batch-nightly|filler)")) then .metadata.namespace = "nightly" else . end)' \
		"$SAMPLE/gang/cluster.json" >"$cluster"
	preempt-plan --simulate --kubernetes-version 1.36 -o html "$cluster" >"$page" 2>/dev/null || [ $? -eq 1 ]
	valid "$page"
	grep -q '12 victim(s) of 3 workload(s) in 2 namespace(s)' "$page" || fail "$(grep -o '[0-9]* victim(s) of [^.]*' "$page")"
	[ "$(grep -o '<th colspan="5" scope="rowgroup">Namespace [a-z]*' "$page" | sort -u | wc -l)" -eq 2 ]
}

# axis_labels PAGE: per plot, its y-axis labels (text-anchor end) on one line.
axis_labels() {
	tr -d '\n' <"$1" | grep -o '<svg class="chart" width="[0-9]*" height="[0-9]*" viewBox[^>]*>.*\?</svg>' |
		sed 's|</svg>|&\n|g' | grep '<svg class="chart"' |
		sed 's|<text[^>]*text-anchor="end">\([^<]*\)</text>|[\1]|g; s|<[^>]*>||g; s|[^][]*\(\[[^]]*\]\)|\1 |g; s|[^]]*$||' | grep .
}

@test "apiq-sim run -o html: one run's plots span the page, with real axes (ticks, never 0 to 0)" {
	page="$BATS_TEST_TMPDIR/run.html"
	# 10 pods: nothing waits for the rate limiter, so that plot's values are all 0
	run -0 apiq-sim run --pods 10 -o html
	printf '%s\n' "$output" >"$page"
	valid "$page"
	render "$page" apiq-run
	[[ $JS != *'<div class="grid">'* ]] || fail "a single run is drawn in the grid of --compare's columns"
	[ "$(count "$JS" '<svg class="chart" width="1200" height="220" viewBox="0 0 1200 220"')" -ge 4 ] || fail "plots not wide"
	! grep -q 'svg.chart{[^}]*max-width' "$page" || fail "the plots are held to a fixed width"
	labels=$(axis_labels "$page")
	[ "$(wc -l <<<"$labels")" -ge 4 ] || fail "plots: $labels"
	while read -r l; do
		# 0 and at least one tick above it, all different
		n=$(grep -o '\[[^]]*\]' <<<"$l" | wc -l)
		u=$(grep -o '\[[^]]*\]' <<<"$l" | sort -u | wc -l)
		[ "$n" -ge 2 ] && [ "$n" -eq "$u" ] && [[ $l == '[0]'* ]] || fail "y axis: $l"
	done <<<"$labels"
	fits "$page" apiq-run-10
}

@test "-o html: a warnings box at the top, a box per warning with what it touched (pipeline and --simulate)" {
	cluster="$BATS_TEST_TMPDIR/nopc.json" page="$BATS_TEST_TMPDIR/warn.html"
	jq '.items |= map(select(.kind != "PriorityClass"))' "$SAMPLE/cluster.json" >"$cluster"
	victims --preemptor "$SAMPLE/preemptor.yaml" "$cluster" 2>/dev/null | preempt-plan -o html >"$page" 2>/dev/null || true
	valid "$page"
	render "$page" warnings
	for dom in "$NOJS" "$JS"; do
		top=$(sed -n '/<section id="warnings">/,/<\/section>/p' <<<"$dom")
		[ -n "$top" ] || fail "no warnings section"
		[[ ${dom%%<section id=\"summary\">*} == *'<section id="warnings">'* ]] || fail "the warnings are not at the top"
		[ "$(count "$top" '<li class="note">')" -eq 2 ] || fail "two warnings, a box each"
		[[ $top == *'<span class="reach">1 of 1 plan(s)</span> pod shop/checkout-7c9d5b8f4-m2x6q: priorityClassName "critical-service" not found'* ]] ||
			fail "the preemptor's class"
		[[ $dom == *'<strong id="count-warnings">2</strong>'* ]] || fail "the headline counts them"
	done
	# --simulate: the run's warnings once at the top, not again in the summary
	preempt-plan --simulate -o html "$SAMPLE/gang/cluster.json" >"$page" 2>/dev/null || true
	valid "$page"
	shown=$(sed '/<script type="application\/json"/,/<\/script>/d' "$page")   # the page less its data
	[ "$(count "$shown" 'Job object(s) not used')" -eq 1 ] || fail "a run warning shown more than once"
	grep -q '<li class="note"><span class="reach">the whole run</span> 1 Job object(s) not used' "$page" || fail "run warning"
}

@test "-o html: the header names the release answered for (--kubernetes-version)" {
	page="$BATS_TEST_TMPDIR/plan.html"
	victims --kubernetes-version 1.36 --preemptor "$SAMPLE/preemptor.yaml" "$SAMPLE/cluster.json" |
		preempt-plan -o html --kubernetes-version 1.36 >"$page"
	grep -q '<p class="meta">victims | preempt-plan: 1 plan(s) on a cluster of [0-9]* node(s); answers for Kubernetes 1.36;' "$page"
	preempt-plan --simulate -o html "$SAMPLE/gang/cluster.json" >"$page" 2>/dev/null || [ $? -eq 1 ]
	grep -q '<p class="meta">preempt-plan --simulate: .*; answers for Kubernetes 1.37;' "$page"
}

@test "-o html: a whole-gang eviction is one PodGroup disruption, through the pipeline and --simulate" {
	gpu="$FIX/simulate/gang-victim-members-come-back-as-their-PodGroup/cluster.json"
	page="$BATS_TEST_TMPDIR/gang.html" sim="$BATS_TEST_TMPDIR/gang-sim.html"
	victims --pending "$gpu" | preempt-plan -o html >"$page"
	valid "$page"
	render "$page" gang-pipeline
	for dom in "$NOJS" "$JS"; do
		[[ $dom == *'Victims include the pods of 1 pod group(s), in 1 PodGroup disruption(s)'* ]] ||
			fail "the disruption counted"
		# the plan evicts on three nodes: each is touched
		for n in gpu-01 gpu-02 gpu-03; do
			[[ $dom == *"id=\"node-$n\""* ]] || fail "node $n touched"
		done
		[[ $dom == *'preempting 3 pod(s) on nodes gpu-01, gpu-02, gpu-03 (1 PodGroup disruption(s))'* ]] ||
			fail "the reason names every node"
	done
	# --simulate: the gang's recreated members are one unit, first evicted by infer
	preempt-plan --simulate -o html "$gpu" >"$sim" 2>/dev/null || [ $? -eq 1 ]
	valid "$sim"
	render "$sim" gang-simulate
	for dom in "$NOJS" "$JS"; do
		[[ $dom == *'3 victim(s) are recreated by their controller and queued again, in 1 unit(s)'* ]] ||
			fail "recreated members as one unit"
		[[ $dom == *'<td><a href="#podgroup-ml.train">podgroup ml/train</a></td><td><a href="#pod-ml.infer">ml/infer</a></td>'* ]] ||
			fail "the gang first evicted by infer"
		[[ $dom == *'<td class="n">0</td><td>all</td><td class="reason">pod group preemption: No preemption victims found for incoming preemptor</td>'* ]] ||
			fail "the gang's disruption mode, as v1beta1 says it"
	done
}

@test "-o html: 'Nodes touched' leaves out the nomination a NotEligible pod keeps" {
	cluster="$BATS_TEST_TMPDIR/ne.json" page="$BATS_TEST_TMPDIR/ne.html"
	# preemptionPolicy Never, nominated to demo-worker1 before: NotEligible, the nomination stays
	jq '.items += [{"apiVersion": "v1", "kind": "Pod",
		"metadata": {"name": "waits", "namespace": "default", "uid": "uid-waits", "creationTimestamp": "2026-11-20T09:00:00Z"},
		"spec": {"priority": 2000, "preemptionPolicy": "Never",
			"containers": [{"name": "c", "image": "registry.k8s.io/pause:3.10", "resources": {"requests": {"cpu": "7"}}}]},
		"status": {"phase": "Pending", "nominatedNodeName": "demo-worker1"}}]' "$SAMPLE/cluster.json" >"$cluster"
	victims --pending "$cluster" 2>/dev/null | preempt-plan -o html >"$page" 2>/dev/null || [ $? -eq 1 ]
	embedded "$page" preemptkit-records |
		jq -e 'map(select(.kind == "PreemptionPlan" and .preemptor.name == "waits"))[0] | .result == "NotEligible" and .nominatedNodeName == "demo-worker1"'
	run grep -c 'id="node-demo-worker1"' "$page"
	[ "$output" = 0 ] || fail "the kept nomination is listed as a touched node"
}

@test "--simulate --apply -o html: an applied object's assumption is one warning, naming the object" {
	page="$BATS_TEST_TMPDIR/apply.html" pods="$BATS_TEST_TMPDIR/pods.yaml"
	printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: copied, namespace: shop}\nspec:\n  nodeName: node-9\n  priorityClassName: shop\n  containers: [{name: c, image: busybox, resources: {requests: {cpu: 100m}}}]\nstatus: {phase: Running}\n' >"$pods"
	preempt-plan --simulate -o html "$FIX/simulate/apply-deployment-scale-up/cluster.json" --apply "$pods" >"$page" 2>/dev/null
	valid "$page"
	[ "$(grep -c 'it carries a status' "$page" | head -1)" -ge 1 ]
	box=$(sed -n '/<section id="warnings">/,/<\/section>/p' "$page")
	[ "$(grep -o 'it carries a status' <<<"$box" | wc -l)" -eq 1 ] || fail "the assumption twice: $box"
	[[ $box == *'<span class="reach">1 applied object(s)</span> Pod shop/copied: it carries a status'* ]] || fail "reach: $box"
}

# shown PAGE: what the page shows, without its embedded data.
shown() { sed '/<script type="application\/json"/,/<\/script>/d' "$1"; }

@test "preempt-plan --replay -o html: the hand-checked cascade's timeline, as its NDJSON says, with JavaScript off and on" {
	casc="$FIX/replay/cascade-grace-and-job-replacement" json="$BATS_TEST_TMPDIR/replay.ndjson" page="$BATS_TEST_TMPDIR/replay.html"
	preempt-plan --replay "$casc/snapshot.json" "$casc/trace.ndjson" >"$json" 2>/dev/null
	run -0 --separate-stderr preempt-plan --replay -o html "$casc/snapshot.json" "$casc/trace.ndjson"
	printf '%s\n' "$output" >"$page"
	# the assumptions on stderr as with -o json
	[[ $stderr == *'backoff and queueing hints are not modelled'* ]] || fail "stderr: $stderr"
	valid "$page"
	# at 800 px: the narrowest width the pages hold
	render "$page" replay 800,1600
	for js in nojs js; do
		read -r scroll inner <"$OUT/overflow-$js.txt"
		[ "$scroll" -le 800 ] && [ "$(wc -l <"$OUT/overflow-$js.txt")" -le 1 ] || fail "runs off the page ($js): $(cat "$OUT/overflow-$js.txt")"
	done
	summary=$(jq -c 'select(.kind == "ReplaySummary")' "$json")
	# the waits each class shows, from the NDJSON summary
	mapfile -t waits < <(jq -r '.classes[] | "<td>\(.priorityClassName) (\(.priority))</td>.*<td>p50 \(.waitSeconds.p50) s, p95 \(.waitSeconds.p95) s, max \(.waitSeconds.max) s; \(.neverScheduled) of \(.pods) pod(s) never scheduled</td>"' <<<"$summary")
	[ "${#waits[@]}" -eq 2 ]
	mapfile -t warnings < <(jq -r '.warnings[]' <<<"$summary")
	[ "${#warnings[@]}" -eq 2 ]
	for dom in "$NOJS" "$JS"; do
		# the summary per class: -o table's rows
		[[ $dom == *'<tr><td>high</td><td class="n">1000</td><td class="n">3</td><td class="n">3</td><td class="n">0</td><td class="n">0</td><td class="n">0</td><td class="n">5</td><td class="n">5</td><td class="n">5</td><td class="n">0</td></tr>'* ]] || fail "high's row"
		[[ $dom == *'<tr><td>low</td><td class="n">100</td><td class="n">4</td><td class="n">2</td><td class="n">2</td><td class="n">0</td><td class="n">0</td><td class="n">0</td><td class="n">50</td><td class="n">50</td><td class="n">24</td></tr>'* ]] || fail "low's row"
		[[ $dom == *'<strong id="count-evicted">2</strong>'* ]] || fail "evictions counted"
		for w in "${waits[@]}"; do
			grep -q -- "$w" <<<"$dom" || fail "wait figures: $w"
		done
		for w in "${warnings[@]}"; do
			[[ $dom == *"<li class=\"note\">$w</li>"* ]] || fail "warning: $w"
		done
		# a chart per resource, a band per class, two eviction marks in each, when and whom in their tooltips
		for r in cpu memory; do
			chart=$(grep -o "<figure id=\"chart-$r\">.*</figure>" <<<"$dom" | sed 's|</figure>.*||')
			[[ $chart == *'<path class="area a0"'* && $chart == *'<path class="area a1"'* ]] || fail "$r: the classes' bands"
			[ "$(count "$chart" '<path class="mark"')" -eq 2 ] || fail "$r: eviction marks"
			[[ $chart == *'<title>1 eviction(s) at 2026-01-01T00:00:15Z (+15s after 2026-01-01T00:00:00Z): default/job-b (preempted by default/hi-1)</title>'* ]] ||
				fail "$r: the first eviction's tooltip"
			[[ $chart == *'<text x="70.0" y="226.0" text-anchor="start">0</text><text x="165.1" y="226.0" text-anchor="middle">10m</text>'* ]] ||
				fail "$r: a time axis in durations"
		done
		[[ $dom == *'<figcaption>cpu: 6 cores allocatable; allocated 4.212 cores on average (70.2 %), 6 cores at the peak</figcaption>'* ]] ||
			fail "cpu's figures, the summary's utilisation"
		[[ $dom == *'Downsampled to keep the page small: 453 windows of 8s each'* ]] || fail "the downsampling said"
	done
	[[ $JS == *'<button type="button" class="sort">CLASS</button>'* ]] || fail "the classes table is sortable"
	# the data: the NDJSON summary as it is, and the series the charts are drawn from
	embedded "$page" preemptkit-replay | jq -e --argjson s "$summary" '.[0] == $s and .[1].kind == "ReplaySeries"
		and .[1].windows == 453 and .[1].windowSeconds == 8 and ([.[1].evictions[].count] | add) == 2
		and (.[1].resources[0].peakAllocated | max) == $s.utilisation[0].peakAllocated'
}

@test "preempt-plan --replay -o html: a 10,000-pod replay's page stays small; its series adds up to the summary" {
	awk -v what=snapshot -v nodes=190 -f "$ROOT/bench/gen-trace.awk" >"$BATS_TEST_TMPDIR/snap.ndjson"
	awk -v what=trace -v pods=10000 -f "$ROOT/bench/gen-trace.awk" >"$BATS_TEST_TMPDIR/trace.ndjson"
	page="$BATS_TEST_TMPDIR/big.html"
	preempt-plan --replay --run-time-from run-seconds -o html "$BATS_TEST_TMPDIR/snap.ndjson" "$BATS_TEST_TMPDIR/trace.ndjson" >"$page" 2>/dev/null
	valid "$page"
	size=$(wc -c <"$page")
	[ "$size" -lt 300000 ] || fail "the page is $size bytes"
	grep -q 'Downsampled to keep the page small: [0-9]* windows of [0-9a-z]* each (at most 480)' "$page"
	# the stacked bands' time-weighted mean and the peaks are the summary's utilisation; every eviction marked;
	# the events kept the series in step with the nodes (never counted again from them)
	embedded "$page" preemptkit-replay | jq -e '.[0] as $sum | .[1] as $s | $s.windows <= 480 and $s.recounts == 0
		and ([$sum.classes[].evicted] | add) + $sum.snapshotEvicted == ([$s.evictions[].count] | add)
		and all($s.resources | to_entries[]; .key as $i | .value.resource as $r | ($sum.utilisation[$i]) as $u
			| ((.value.peakAllocated | max) - $u.peakAllocated | fabs) <= 1e-5 * $u.peakAllocated
			and (([ $s.classes[] | .allocated[$r] | to_entries[] | .value * (if .key + 1 < $s.windows then $s.windowSeconds
				else $s.durationSeconds - .key * $s.windowSeconds end) ] | add) / $s.durationSeconds - $u.meanAllocated | fabs)
				<= 1e-4 * $u.meanAllocated)'
	# the marks are grouped: at most 60 per chart
	[ "$(shown "$page" | grep -o '<path class="mark"' | wc -l)" -le 120 ]
}

@test "preempt-plan --replay -o html: an extended resource the nodes have gets its chart (nvidia.com/gpu)" {
	ali="$FIX/replay/alibaba-gpu-v2023-csv-converted" d="$BATS_TEST_TMPDIR/ali" page="$BATS_TEST_TMPDIR/gpu.html"
	"$ROOT/share/examples/alibaba-gpu-v2023-to-trace.sh" "$ali/nodes.csv" "$ali/pods.csv" "$d" 2>/dev/null
	preempt-plan --replay --run-time-from run-seconds -o html "$d/snapshot.ndjson" "$d/trace.ndjson" >"$page" 2>/dev/null
	valid "$page"
	chart=$(shown "$page" | tr -d '\n' | grep -o '<figure id="chart-nvidia.com_gpu">.*</figure>' | sed 's|</figure>.*||')
	[[ $chart == *'<figcaption>nvidia.com/gpu: 8 allocatable; allocated '*', 8 at the peak</figcaption>'* ]] || fail "caption: ${chart:0:300}"
	[[ $chart == *'<path class="area a1"'* ]] || fail "burstable's GPUs"
}

@test "preempt-plan --replay -o html: class and pod names with markup come out escaped, in the charts' tooltips too" {
	casc="$FIX/replay/cascade-grace-and-job-replacement" page="$BATS_TEST_TMPDIR/hostile-replay.html"
	jq -c '(if .spec.priorityClassName == "low" then .spec.priorityClassName = "<b onmouseover=x>low</b>" else . end)
		| (if .metadata.name == "job-b" then .metadata.name = "</script><script>alert(1)</script>" else . end)' \
		"$casc/trace.ndjson" >"$BATS_TEST_TMPDIR/trace.ndjson"
	jq '.items |= map(if .kind == "PriorityClass" and .metadata.name == "low" then .metadata.name = "<b onmouseover=x>low</b>"
		elif .kind == "Pod" and .spec.priorityClassName == "low" then .spec.priorityClassName = "<b onmouseover=x>low</b>" else . end)' \
		"$casc/snapshot.json" >"$BATS_TEST_TMPDIR/snapshot.json"
	preempt-plan --replay -o html "$BATS_TEST_TMPDIR/snapshot.json" "$BATS_TEST_TMPDIR/trace.ndjson" >"$page" 2>/dev/null
	valid "$page"
	raw=$(cat "$page")
	[[ $raw != *'<b onmouseover'* && $raw != *'<script>alert'* ]]
	[[ $raw == *'<td>&lt;b onmouseover=x&gt;low&lt;/b&gt;</td><td class="n">100</td>'* ]] || fail "the class in the table"
	[[ $raw == *': default/&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; (preempted by default/hi-1)</title>'* ]] ||
		fail "the victim in an eviction mark's tooltip"
	embedded "$page" preemptkit-replay | jq -e '.[1].evictions[0].pods[0].name == "</script><script>alert(1)</script>"
		and .[1].classes[1].priorityClassName == "<b onmouseover=x>low</b>"'
}

@test "-o html under --dra-preemption=kep-5690: a plan names the devices each victim frees and keeps; the template's claim and the proposal are two warnings" {
	c="$FIX/victims/DRA-KEP-5690-option-a-victim-frees-its-own-claim-s-devices-not-those-of-a-claim-shared-with-a-pod-that-stays"
	sim="$FIX/simulate/DRA-KEP-5690-option-a-plan-names-the-devices-each-victim-frees-and-the-settling-window/cluster.json"
	page="$BATS_TEST_TMPDIR/kep.html" simpage="$BATS_TEST_TMPDIR/kep-sim.html" gpu="$BATS_TEST_TMPDIR/kep-gpu.html"
	victims --dra-preemption=kep-5690 --preemptor "$c/preemptor.json" "$c/cluster.json" 2>/dev/null | preempt-plan -o html >"$page" 2>/dev/null
	preempt-plan --simulate --dra-preemption=kep-5690 -o html "$sim" >"$simpage" 2>/dev/null
	for p in "$page" "$simpage"; do
		valid "$p"
		render "$p" "kep5690-$(basename "$p" .html)"
		for dom in "$NOJS" "$JS"; do
			[[ $dom == *'frees (KEP-5690): gpu.example.com/gpu-1/gpu-0, gpu.example.com/gpu-1/gpu-1 (claim default/low-a-gpus of default/low-a)'* ]] ||
				fail "$p: the devices low-a frees"
			[[ $dom == *"not freed (KEP-5690): gpu.example.com/gpu-1/gpu-2 (claim default/shared-gpus of default/low-a: shared with default/web, which stays)"* ]] ||
				fail "$p: the shared claim low-a keeps"
		done
		embedded "$p" preemptkit-records | jq -e 'map(select(.kind == "PreemptionPlan"))[0].victims[0]
			| ([.frees[].device] == ["gpu-0", "gpu-1"]) and ([.notFreed[].device] == ["gpu-2"])'
	done
	# the sample's claim made from its template, the proposal and the DeviceTaintRules
	# the input lacks (kubectl's List cannot say there are none): a box each
	victims --dra-preemption=kep-5690 --preemptor "$SAMPLE/gpu/preemptor.yaml" "$SAMPLE/gpu/cluster.json" 2>/dev/null |
		preempt-plan -o html >"$gpu" 2>/dev/null
	valid "$gpu"
	render "$gpu" kep5690-warnings
	for dom in "$NOJS" "$JS"; do
		top=$(sed -n '/<section id="warnings">/,/<\/section>/p' <<<"$dom")
		[ "$(count "$top" '<li class="note">')" -eq 3 ] || fail "three warnings, a box each"
		[[ $top == *'<li class="note"><span class="reach">'*'</span> the input holds ResourceSlices and no DeviceTaintRule objects'* ]] ||
			fail "the DeviceTaintRules the input lacks"
		[[ $top == *'<li class="note"><span class="reach">1 of 1 plan(s)</span> spec.resourceClaims '*'gpus'*' its ResourceClaim is not created yet'* ]] ||
			fail "the template's claim"
		[[ $top == *'<li class="note"><span class="reach">1 of 1 plan(s)</span> DRA preemption as KEP-5690 proposes'* ]] ||
			fail "the proposal"
	done
}
