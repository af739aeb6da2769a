// `npm run headless` (and `npm start` where there is no desktop binary): browser mode.
import module from 'node:module';
import { compileCacheDir } from './built-paths';

// Node keeps V8's compiled code of the app's modules between starts. They load after this line (the core now, the
// model SDK when a chat opens), so the cache covers them; from source (tsx) there is no build to keep it beside.
// Node 22.1+ has it (Electron's Node 24 too); Node 20, which the types describe, does not.
const { enableCompileCache } = module as { enableCompileCache?: (dir: string) => unknown };
const cacheDir = compileCacheDir();
if (cacheDir) enableCompileCache?.(cacheDir);
const { runBrowserMode } = await import('./browser-mode');
await runBrowserMode();
