#!/usr/bin/env bash
# Workflow 2: validate priority manifests before they land, as the pre-commit
# hook in .pre-commit-hooks.yaml does (pre-commit passes the changed files as
# arguments). A repository with a good and a bad change:
set -euo pipefail
repo=$(mktemp -d); trap 'rm -rf "$repo"' EXIT
cat >"$repo/classes.yaml" <<'YAML'
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: batch-low
value: 100
description: batch jobs, preemptible
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: platform-default
value: 1000
globalDefault: true
YAML
cat >"$repo/oops.yaml" <<'YAML'
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: system-important      # the system- prefix is reserved
value: 2000000000
globalDefault: true          # and a second default
YAML

echo "good change:"
pc-validate "$repo/classes.yaml" && echo "  ok"

echo "bad change (exit 1, one line per finding, file:line:col):"
if pc-validate "$repo/classes.yaml" "$repo/oops.yaml"; then
	echo "expected findings" >&2; exit 1
fi
# The same findings for code scanning:
sarif=$(pc-validate -o sarif "$repo/classes.yaml" "$repo/oops.yaml" || true)
jq -e '.runs[0].results | length >= 2' <<<"$sarif" >/dev/null
echo "  SARIF: $(jq '.runs[0].results | length' <<<"$sarif") results"
