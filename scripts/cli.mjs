#!/usr/bin/env node
// `npm run cli -- <command>`: the built CLI (out/node/cli.js), built first when a source changed since.
import module from 'node:module';
import path from 'node:path';
import { ensureNodeDoorsBuilt, OUT_DIR } from './node-build.mjs';

// Node 22+ (and Electron's 24) keep V8's compiled code between runs; in a folder of ours, not the shared temp one.
module.enableCompileCache?.(path.join(OUT_DIR, '.compile-cache'));
await ensureNodeDoorsBuilt((line) => process.stderr.write(`${line}\n`));
// A fixed path beside this script (out/node/cli.js), never one from input.
await import('../out/node/cli.js');
