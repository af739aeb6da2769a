// Issue 36, item 4: the core's folders depend on each other one way. A folder-level import loop (safety ⇄ notes,
// chat ⇄ council were two) means two folders are one job split in the wrong place. Files at the core's root (the
// host's wiring and the ports every folder shares) are left out of the graph.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const CORE = path.resolve('electron/core');
const IMPORT = /(?:^|\n)\s*(?:import|export)[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

/** The core folder a file is in, or null for the core's root and anything outside the core. */
function folderOf(file: string): string | null {
  const rel = path.relative(CORE, file);
  if (rel.startsWith('..')) return null;
  const parts = rel.split(path.sep);
  return parts.length > 1 ? parts[0]! : null;
}

function folderGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of files(CORE)) {
    const from = folderOf(file);
    if (!from) continue;
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(IMPORT)) {
      const to = folderOf(path.resolve(path.dirname(file), match[1] ?? match[2]!));
      if (!to || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      // One example import per edge, for the failure message.
      if (!graph.get(from)!.has(to)) graph.get(from)!.set(to, path.relative(CORE, file));
    }
  }
  return graph;
}

/** Every loop of folders importing each other, directly or through others, as "a → b → … → a". */
function loops(graph: Map<string, Map<string, string>>): string[] {
  const found: string[] = [];
  const reach = (start: string, target: string): string[] | null => {
    const queue: string[][] = [[start]];
    const seen = new Set([start]);
    while (queue.length) {
      const trail = queue.shift()!;
      for (const next of graph.get(trail.at(-1)!)?.keys() ?? []) {
        if (next === target) return [...trail, next];
        if (!seen.has(next)) {
          seen.add(next);
          queue.push([...trail, next]);
        }
      }
    }
    return null;
  };
  const seen = new Set<string>();
  for (const [from, edges] of graph) {
    for (const to of edges.keys()) {
      const back = reach(to, from);
      // One report per loop, however many of its edges lead into it.
      const key = back && [...new Set(back)].sort().join(' ');
      if (!back || seen.has(key!)) continue;
      seen.add(key!);
      found.push(`${from} → ${back.join(' → ')} (${edges.get(to)})`);
    }
  }
  return found;
}

describe('the core folders import one way', () => {
  it('has no folder-level import loop', () => {
    const graph = folderGraph();
    expect(graph.size).toBeGreaterThan(10);
    expect(loops(graph)).toEqual([]);
  });

  it('the check finds a loop when there is one', () => {
    const graph = new Map([
      ['chat', new Map([['council', 'chat/x.ts']])],
      ['council', new Map([['lore', 'council/y.ts']])],
      ['lore', new Map([['chat', 'lore/z.ts']])],
    ]);
    expect(loops(graph)).toEqual(['chat → council → lore → chat (chat/x.ts)']);
  });
});
