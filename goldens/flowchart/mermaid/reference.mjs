// reference.mjs — dump how the REAL Mermaid parser reads flowcharts, as an
// independent reference to compare with clefeval's own Mermaid reader.
//
// For each FILE (a .mmd/.mermaid file, or a Markdown .md file whose first
// ```mermaid fenced block is the diagram) it parses the text with Mermaid's own
// parser (mermaid.mermaidAPI.getDiagramFromText) and prints ONE JSON line:
//   {"file": F, "nodes": [{"id","type","text"}...],
//               "edges": [{"start","end","type","stroke","length","text"}...]}
// in Mermaid's own order (vertex insertion order, edge order). "type" is
// Mermaid's vertex type ("square", "round", "stadium", "diamond", ... or the
// @{ shape: ... } name); texts are exactly as Mermaid stores them.
// If parsing fails it prints {"file": F, "error": MESSAGE} and goes on.
//
// Its output for this folder's fixtures is committed as reference.jsonl
// (made from this folder with: node reference.mjs gold/FC-0001.mmd
// gold/FC-0003.mmd runs/recognizer-a/FC-0001.md runs/recognizer-a/FC-0003.mmd
// forms.mmd > reference.jsonl); tests/flowchart_formats.rs compares
// clefeval's reading of each fixture with it.
//
// Needs: Node.js >= 20 and the npm packages mermaid and jsdom (tested with
// mermaid 11.17.2, jsdom 29.1.1). Nothing is rendered; jsdom only provides the
// window/document that Mermaid's DOMPurify import needs. Neither the build nor
// the tests run it (they read reference.jsonl). Set it up once in any folder outside the repo:
//   mkdir -p /tmp/mermaid-ref && cd /tmp/mermaid-ref && npm init -y && npm install mermaid jsdom
// Run it with that folder's node_modules found through NODE_PATH (ES-module
// imports ignore NODE_PATH, so this script resolves them itself from it):
//   NODE_PATH=/tmp/mermaid-ref/node_modules node goldens/flowchart/mermaid/reference.mjs FILE...
// or copy the script into that folder and run `node reference.mjs FILE...` there.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// Resolve a package from NODE_PATH entries, then from the current directory,
// then normally (next to this script).
async function load(name) {
  const bases = [...(process.env.NODE_PATH || '').split(path.delimiter).filter(Boolean)
    .map((d) => path.join(path.resolve(d), '..')), process.cwd()];
  for (const base of bases) {
    try {
      const req = createRequire(path.join(base, 'noop.js'));
      return await import(pathToFileURL(req.resolve(name)).href);
    } catch { /* try the next base */ }
  }
  return import(name);
}

const { JSDOM } = await load('jsdom');
const dom = new JSDOM('<!DOCTYPE html><html><body></body></html>', { pretendToBeVisual: true });
globalThis.window = dom.window; // DOMPurify (imported by mermaid) needs a window
globalThis.document = dom.window.document;
const { default: mermaid } = await load('mermaid');
mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });

// The diagram text: the whole file, or the first ```mermaid block of a Markdown file.
function diagramText(file) {
  const raw = readFileSync(file, 'utf8');
  if (!/\.(md|markdown)$/i.test(file)) return raw;
  const m = raw.match(/^[ \t]*(`{3,}|~{3,})[ \t]*mermaid\b[^\n]*\n([\s\S]*?)^[ \t]*\1[ \t]*$/m);
  if (!m) throw new Error('no ```mermaid fenced block found');
  return m[2];
}

const values = (x) => (x instanceof Map ? [...x.values()] : Object.values(x ?? {}));

for (const file of process.argv.slice(2)) {
  let out;
  try {
    const diagram = await mermaid.mermaidAPI.getDiagramFromText(diagramText(file));
    const db = diagram.db;
    if (typeof db.getVertices !== 'function') throw new Error(`not a flowchart (diagram type ${diagram.type})`);
    const nodes = values(db.getVertices()).map((v) => ({ id: v.id, type: v.type ?? null, text: v.text ?? null }));
    const edges = db.getEdges().map((e) => ({
      start: e.start, end: e.end, type: e.type ?? null, stroke: e.stroke ?? null,
      length: e.length ?? null, text: e.text ?? null,
    }));
    out = { file, nodes, edges };
  } catch (err) {
    out = { file, error: String(err?.message ?? err) };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}
