// `npm test`: typecheck, lint, unit + renderer tests, build, security gate, browser e2e — then one summary line.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'cw-test-reports-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const failedStages = [];
/** Each failed test's name and the first line of its error, repeated at the end where a log's tail shows it. */
const failedTests = [];
const ESCAPES = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const firstLine = (text) => String(text ?? '').replace(ESCAPES, '').trim().split('\n')[0].slice(0, 300);

function stage(name, command, args, env = {}) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = result.status === 0;
  console.log(`--- ${name}: ${ok ? 'ok' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (!ok) failedStages.push(name);
  return ok;
}

function countVitest(file) {
  if (!fs.existsSync(file)) return;
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  totals.passed += report.numPassedTests ?? 0;
  totals.failed += report.numFailedTests ?? 0;
  totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  for (const file of report.testResults ?? []) {
    const where = path.relative(root, file.name ?? '');
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'failed') failedTests.push(`${where} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    }
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed')) {
      failedTests.push(`${where}: ${firstLine(file.message)}`);
    }
  }
}

function countPlaywright(file) {
  if (!fs.existsSync(file)) return;
  const { stats, suites } = JSON.parse(fs.readFileSync(file, 'utf8'));
  totals.passed += (stats?.expected ?? 0) + (stats?.flaky ?? 0);
  totals.failed += stats?.unexpected ?? 0;
  totals.skipped += stats?.skipped ?? 0;
  const walk = (suite, file) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue;
        const error = test.results?.at(-1)?.error?.message;
        failedTests.push(`${spec.file ?? file} › ${spec.title}: ${firstLine(error)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, suite.file ?? file);
  };
  for (const suite of suites ?? []) walk(suite, suite.file);
}

stage('typecheck', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']);
stage('lint', bin('eslint'), ['--max-warnings', '0', '.']);
const vitestJson = path.join(reports, 'vitest.json');
stage('unit and renderer tests', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]);
countVitest(vitestJson);
const built = stage('build', bin('electron-vite'), ['build']);
if (built) stage('renderer chunks ≤ 500 kB', process.execPath, [path.join(root, 'scripts', 'check-chunks.mjs')]);
stage('security gate', process.execPath, [path.join(root, 'scripts', 'electronegativity.mjs')]);
/** The e2e tests drive Debian's Chromium; on a fresh machine install it the way the README says. */
function ensureChromium() {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (fs.existsSync(chromium)) return true;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !fs.existsSync('/usr/bin/apt-get')) {
    console.log(`\nChromium is missing (${chromium}). Install it with: sudo apt-get install -y chromium (or set CHROMIUM_PATH).`);
    return false;
  }
  console.log('\nChromium is missing; installing Debian\'s chromium for the browser tests…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
  return fs.existsSync(chromium);
}

if (built && !ensureChromium()) {
  failedStages.push('e2e (Chromium) not run: Chromium is not installed');
} else if (built) {
  const playwrightJson = path.join(reports, 'playwright.json');
  stage('e2e (Chromium)', bin('playwright'), ['test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson });
  countPlaywright(playwrightJson);
} else {
  failedStages.push('e2e (Chromium) not run: the build failed');
}

console.log(`\nStages failed: ${failedStages.length ? failedStages.join('; ') : 'none'}`);
for (const failed of failedTests) console.log(`Failed: ${failed}`);
console.log(`Tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
fs.rmSync(reports, { recursive: true, force: true });
process.exit(failedStages.length || totals.failed ? 1 : 0);
