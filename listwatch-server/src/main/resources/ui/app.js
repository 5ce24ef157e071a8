// The live page: LIST each resource, then WATCH it from the list's resourceVersion over a
// streaming fetch (one JSON watch event per line), re-listing on 410 Gone, and redraw.
"use strict";

const state = { nodes: new Map(), pods: new Map(), deployments: new Map() };
const sources = [
  ["nodes", "/api/v1/nodes"],
  ["pods", "/api/v1/pods"],
  ["deployments", "/apis/apps/v1/deployments"],
];

function key(o) {
  const m = o.metadata || {};
  return (m.namespace ? m.namespace + "/" : "") + m.name;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function listWatch(name, path) {
  const items = state[name];
  for (;;) {
    let rv;
    try {
      const resp = await fetch(path);
      if (!resp.ok) throw new Error(path + ": " + resp.status);
      const list = await resp.json();
      items.clear();
      for (const o of list.items || []) items.set(key(o), o);
      rv = list.metadata.resourceVersion;
      redraw();
      setStatus("live");
      // watch until the server says the version is gone (410): then list again
      while (rv !== null) rv = await watch(path, items, rv);
    } catch (e) {
      setStatus("error", String(e));
      await sleep(1000);
    }
  }
}

/** One watch request; returns the version to resume from, or null to re-list. */
async function watch(path, items, rv) {
  const resp = await fetch(path + "?watch=1&allowWatchBookmarks=true&resourceVersion=" + encodeURIComponent(rv));
  if (resp.status === 410) return null;
  if (!resp.ok) throw new Error(path + " watch: " + resp.status);
  const reader = resp.body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return rv; // the server ended the watch: resume where we are
    buffered += decoder.decode(value, { stream: true });
    let nl;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (!line) continue;
      const event = JSON.parse(line);
      const o = event.object;
      if (event.type === "ERROR") {
        if (o && o.code === 410) return null;
        throw new Error(path + " watch: " + (o && o.message));
      }
      if (o && o.metadata && o.metadata.resourceVersion) rv = o.metadata.resourceVersion;
      if (event.type === "ADDED" || event.type === "MODIFIED") items.set(key(o), o);
      else if (event.type === "DELETED") items.delete(key(o));
      else continue; // BOOKMARK: only the version moves
      redraw();
    }
  }
}

function setStatus(s, detail) {
  const el = document.getElementById("status");
  el.dataset.state = s;
  el.textContent = s === "live" ? "live" : s === "error" ? "reconnecting: " + detail : s;
}

let pending = false;
function redraw() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => { pending = false; draw(); });
}

function phaseOf(pod) {
  if (pod.metadata.deletionTimestamp) return "terminating";
  return ((pod.status && pod.status.phase) || "Pending").toLowerCase();
}

function ready(node) {
  const c = ((node.status && node.status.conditions) || []).find((x) => x.type === "Ready");
  return c ? c.status === "True" : false;
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function nodeBox(title, pods, cls, badge) {
  const box = el("div", "node " + cls);
  const h = el("h3");
  h.append(el("span", "", title), el("span", "", badge));
  const list = el("div", "pods");
  for (const p of pods) {
    const chip = el("span", "pod phase-" + phaseOf(p), p.metadata.name);
    chip.dataset.pod = key(p);
    chip.dataset.phase = phaseOf(p);
    chip.title = key(p) + " (" + phaseOf(p) + ")" + (p.status && p.status.podIP ? " " + p.status.podIP : "");
    list.append(chip);
  }
  box.append(h, list);
  return box;
}

function draw() {
  const byNode = new Map();
  const sorted = [...state.pods.values()].sort((a, b) => key(a).localeCompare(key(b)));
  for (const p of sorted) {
    const n = (p.spec && p.spec.nodeName) || "";
    if (!byNode.has(n)) byNode.set(n, []);
    byNode.get(n).push(p);
  }
  const boxes = [];
  const nodes = [...state.nodes.values()].sort((a, b) => key(a).localeCompare(key(b)));
  for (const n of nodes) {
    const pods = byNode.get(n.metadata.name) || [];
    const box = nodeBox(n.metadata.name, pods, ready(n) ? "ready" : "not-ready",
        (ready(n) ? "Ready" : "NotReady") + " · " + pods.length);
    box.dataset.node = n.metadata.name;
    boxes.push(box);
    byNode.delete(n.metadata.name);
  }
  const unscheduled = [...byNode.values()].flat();
  if (unscheduled.length) boxes.push(nodeBox("unscheduled", unscheduled, "unscheduled", String(unscheduled.length)));
  document.getElementById("nodes").replaceChildren(...boxes);

  const rows = [];
  for (const d of [...state.deployments.values()].sort((a, b) => key(a).localeCompare(key(b)))) {
    const s = d.status || {};
    const want = (d.spec && d.spec.replicas) ?? 1;
    const tr = el("tr", (s.updatedReplicas || 0) < want || (s.readyReplicas || 0) < want ? "rolling" : "");
    tr.dataset.deployment = key(d);
    for (const v of [d.metadata.namespace, d.metadata.name, want, s.updatedReplicas || 0, s.readyReplicas || 0,
        s.availableReplicas || 0]) {
      tr.append(el("td", "", String(v)));
    }
    rows.push(tr);
  }
  document.querySelector("#deployments tbody").replaceChildren(...rows);
}

for (const [name, path] of sources) listWatch(name, path);
