// After the build: no renderer chunk over 500 kB (vite's own warning limit), so the window paints quickly.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const LIMIT_BYTES = 500 * 1000;
const assets = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'out', 'renderer', 'assets');
const chunks = fs.readdirSync(assets).filter((name) => name.endsWith('.js')).map((name) => ({ name, bytes: fs.statSync(path.join(assets, name)).size }));
for (const chunk of chunks) console.log(`${chunk.name}  ${(chunk.bytes / 1000).toFixed(1)} kB`);
const over = chunks.filter((chunk) => chunk.bytes > LIMIT_BYTES);
if (over.length) {
  console.error(`Over ${LIMIT_BYTES / 1000} kB: ${over.map((c) => c.name).join(', ')}`);
  process.exit(1);
}
