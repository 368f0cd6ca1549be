#!/usr/bin/env bash
# Workflow 2: validate priority manifests before they land, as the pre-commit
# hook in .pre-commit-hooks.yaml does: `pc-validate --staged` reads the
# commit being made from git itself (the index against HEAD), so everything
# committed at HEAD is what already exists and the staged files replace
# their committed versions, however many there are. A repository with a
# good change, a bad one, a change to a committed class, a class moved to
# another file and a kustomize overlay:
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
git add classes.yaml
pc-validate --staged 2>/dev/null
echo "  ok"
git commit -qm "priority classes"

echo "bad change staged (exit 1, one line per finding, file:line:col):"
git add oops.yaml
if pc-validate --staged; then
	echo "expected findings" >&2; exit 1
fi
git rm -q --cached oops.yaml

echo "a committed class's value changed (exit 1, as the apiserver rejects the update):"
sed -i 's/^value: 100$/value: 150/' classes.yaml
git add classes.yaml
if pc-validate --staged; then
	echo "expected the immutability error" >&2; exit 1
fi
git checkout -q HEAD -- classes.yaml

echo "the same class moved to another file with git mv and changed (identity, not path, decides):"
git mv classes.yaml priorities.yaml
sed -i 's/^value: 100$/value: 150/' priorities.yaml
git add priorities.yaml
if pc-validate --staged; then
	echo "expected the immutability error" >&2; exit 1
fi
git reset -q --hard

echo "a kustomize overlay's patch is a partial object, not a second definition:"
mkdir -p base overlay
printf 'resources: [deployment.yaml]\n' >base/kustomization.yaml
printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  template:\n    spec:\n      priorityClassName: batch-low\n      containers: [{name: web, image: nginx}]\n' >base/deployment.yaml
printf 'resources: [../base]\npatches:\n- path: replicas.yaml\n' >overlay/kustomization.yaml
printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec: {replicas: 3}\n' >overlay/replicas.yaml
git add base overlay
pc-validate --staged 2>/dev/null
echo "  ok"

# The same findings for code scanning:
sarif=$(pc-validate -o sarif classes.yaml oops.yaml || true)
jq -e '.runs[0].results | length >= 2' <<<"$sarif" >/dev/null
echo "  SARIF: $(jq '.runs[0].results | length' <<<"$sarif") results, rules: $(jq -r '[.runs[0].tool.driver.rules[].id] | join(", ")' <<<"$sarif")"
