#!/usr/bin/env bash
# Workflow 2: validate priority manifests before they land, as the pre-commit
# hook in .pre-commit-hooks.yaml does: pre-commit passes the staged files as
# arguments, and the hook runs `pc-validate --against HEAD`, so everything
# committed at HEAD is what already exists and the staged files replace
# their committed versions. A repository with a good change, a bad one, a
# change to a committed class and a class moved to another file:
set -euo pipefail
repo=$(mktemp -d); trap 'rm -rf "$repo"' EXIT
cd "$repo"
git init -q
git config user.email example@example.com
git config user.name example
cat >classes.yaml <<'YAML'
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
cat >oops.yaml <<'YAML'
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: system-important      # the system- prefix is reserved
value: 2000000000
globalDefault: true          # and a second default
YAML

echo "good change (the first commit: everything is new):"
pc-validate --against HEAD classes.yaml 2>/dev/null && echo "  ok"
git add classes.yaml && git commit -qm "priority classes"

echo "bad change, only the new file staged (exit 1, one line per finding, file:line:col):"
if pc-validate --against HEAD oops.yaml; then
	echo "expected findings" >&2; exit 1
fi

echo "a committed class's value changed (exit 1, as the apiserver rejects the update):"
sed -i 's/^value: 100$/value: 150/' classes.yaml
if pc-validate --against HEAD classes.yaml; then
	echo "expected the immutability error" >&2; exit 1
fi
git checkout -q classes.yaml

echo "the same class moved to another file with git mv and changed (identity, not path, decides):"
git mv classes.yaml priorities.yaml
sed -i 's/^value: 100$/value: 150/' priorities.yaml
if pc-validate --against HEAD priorities.yaml; then
	echo "expected the immutability error" >&2; exit 1
fi
git reset -q --hard

# The same findings for code scanning:
sarif=$(pc-validate -o sarif classes.yaml oops.yaml || true)
jq -e '.runs[0].results | length >= 2' <<<"$sarif" >/dev/null
echo "  SARIF: $(jq '.runs[0].results | length' <<<"$sarif") results, rules: $(jq -r '[.runs[0].tool.driver.rules[].id] | join(", ")' <<<"$sarif")"
