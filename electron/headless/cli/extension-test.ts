// `extensions test <dir>`: an extension author's test bench. Each case replays a saved chat through the extension
// with the model's answers given in the case, and compares what happened with its snapshot. Exit 0 when all pass,
// 1 when one fails, 2 on a usage or set-up error.
import fs from 'node:fs';
import path from 'node:path';
import { HostFailure } from '../../../shared/errors';
import type { CliCommand, StandaloneContext } from './command';
import type { CaseResult } from '../../core/testbench/run-cases';
import type { LlmRequest } from '../../../shared/types/llm';

const USAGE = 'extensions test <dir> [--case <file>]… [--update] [--ci] [--junit <file>] [--json] [--watch] [--record --connection <id>]';

function usage(message: string, field: string): never {
  throw new HostFailure({ code: 'INVALID_INPUT', message: `${message} Usage: ${USAGE}`, path: field });
}

const MARK: Record<CaseResult['status'], string> = { passed: '✓', written: '✓', updated: '✓', failed: '✗', error: '!' };

function describe(result: CaseResult): string {
  const note = { passed: '', written: ' (snapshot written)', updated: ' (snapshot updated)', failed: '', error: '' }[result.status];
  const lines = [`${MARK[result.status]} ${result.name}${note} — ${Math.round(result.ms)} ms`];
  if (result.error) lines.push(`  could not run: ${result.error.message}${result.error.field ? ` (at ${result.error.field})` : ''}`);
  for (const failure of result.failures ?? []) lines.push(`  ${failure}`);
  if (result.where) lines.push(`  changed: ${result.where.join('; ')}`, ...result.diff!.trimEnd().split('\n').map((l) => `  ${l}`));
  return lines.join('\n');
}

/** Prints the run (and writes its JUnit file); answers the exit code: 2 when a case could not run, 1 when one failed. */
function report(ctx: StandaloneContext, extensionDir: string, results: CaseResult[], junitXml: typeof import('../../core/testbench/junit').junitXml): number {
  const count = (status: CaseResult['status']) => results.filter((r) => r.status === status).length;
  const summary = { passed: count('passed') + count('written') + count('updated'), failed: count('failed'), errors: count('error') };
  // Printed first: a report that cannot be written does not hide the results.
  if (ctx.json) ctx.out(JSON.stringify({ extension: extensionDir, ...summary, cases: results }));
  else ctx.out([...results.map(describe), `${summary.passed} passed, ${summary.failed} failed, ${summary.errors} could not run`].join('\n'));
  const junit = ctx.flags.junit as string | undefined;
  if (junit) {
    const cases = results.map((r) => ({
      name: r.name,
      file: path.relative(extensionDir, r.file),
      ms: r.ms,
      ...(r.error ? { error: { message: r.error.message } } : {}),
      ...(r.status === 'failed' ? { failure: { message: [...(r.where ? [`changed: ${r.where.join('; ')}`] : []), ...(r.failures ?? [])].join(' | '), details: [r.diff ?? '', ...(r.failures ?? [])].join('\n') } } : {}),
    }));
    fs.mkdirSync(path.dirname(path.resolve(junit)), { recursive: true });
    fs.writeFileSync(junit, junitXml(path.basename(extensionDir), cases));
  }
  return summary.errors ? 2 : summary.failed ? 1 : 0;
}

async function testExtension(ctx: StandaloneContext): Promise<number> {
  const dir = ctx.positionals[0];
  if (!dir) usage('Missing <dir>, the extension folder.', 'dir');
  if (ctx.positionals.length > 1) usage(`Unexpected "${ctx.positionals[1]}".`, 'dir');
  const extensionDir = path.resolve(dir);
  if (!fs.existsSync(path.join(extensionDir, 'spindle.json'))) usage(`${extensionDir} holds no spindle.json: give the extension's folder.`, 'dir');
  // Loaded only here: the rest of the CLI never pays for the host.
  const { findCases } = await import('../../core/testbench/case-file');
  const { runCases } = await import('../../core/testbench/run-cases');
  const { junitXml } = await import('../../core/testbench/junit');
  const { createNodeHost } = await import('../node-host');
  const { silentLogger } = await import('../../core/ports');
  const named = (ctx.flags.case as string[] | undefined) ?? [];
  const caseFiles = findCases(extensionDir, named);
  if (!caseFiles.length) usage(`No cases: ${path.join(extensionDir, 'tests')} has no *.case.json, and no --case was given.`, '--case');
  for (const file of caseFiles) if (!fs.existsSync(file)) usage(`There is no case file ${file}.`, '--case');

  if (ctx.flags.record === true && typeof ctx.flags.connection !== 'string') usage('--record needs --connection <id>: the connection (in the data folder) whose model answers.', '--connection');
  if (ctx.flags.record === true && ctx.flags.watch === true) usage('--record runs once: leave out --watch.', '--watch');
  const recorder = ctx.flags.record === true ? await recordFrom(ctx.flags['data-dir'] as string | undefined, ctx.flags.connection as string) : null;
  const once = async (): Promise<number> => {
    const results = await runCases({
      extensionDir,
      // Looked for again each run: --watch sees cases added or removed.
      caseFiles: findCases(extensionDir, named),
      update: ctx.flags.update === true || recorder !== null,
      ci: ctx.flags.ci === true,
      ...(recorder ? { record: recorder.forward } : {}),
      // Every approval is granted: a case decides what the model calls; the bundled extensions stay out of it.
      startHost: (dataDir, { councilSeed }) => createNodeHost({ dataDir, mode: 'cli', log: silentLogger, approve: ['*'], bundledExtensionsDir: null, env: {}, councilSeed }),
      ...(ctx.json ? {} : { progress: (line: string) => ctx.err(line) }),
    });
    return report(ctx, extensionDir, results, junitXml);
  };
  let code: number;
  try {
    code = await once();
  } finally {
    await recorder?.dispose();
  }
  if (ctx.flags.watch !== true) return code;
  const { watchRuns } = await import('./watch-runs');
  const junit = ctx.flags.junit as string | undefined;
  return watchRuns(extensionDir, once, (line) => ctx.err(line), code, junit ? [junit] : []);
}

/** The connection a recording asks: opened from the person's data folder (its key stays in their secret store). */
async function recordFrom(dataDir: string | undefined, connectionId: string) {
  const { createNodeHost } = await import('../node-host');
  const { silentLogger } = await import('../../core/ports');
  const { replyOf } = await import('../../core/testbench/cassette');
  const host = await createNodeHost({ dataDir, mode: 'cli', log: silentLogger, startToolSources: false });
  try {
    const profile = host.connections.get(connectionId);
    return { forward: async (request: LlmRequest) => replyOf(await host.llm.complete(profile, request)), dispose: () => host.dispose() };
  } catch (err) {
    await host.dispose();
    throw err;
  }
}

export const extensionTestCommand: CliCommand = {
  words: ['extensions', 'test'],
  usage: USAGE,
  summary: "Replay the extension's test cases (tests/*.case.json) through it and compare each with its snapshot.",
  flags: { case: { type: 'string', multiple: true }, update: { type: 'boolean' }, ci: { type: 'boolean' }, junit: { type: 'string' }, watch: { type: 'boolean' }, record: { type: 'boolean' }, connection: { type: 'string' } },
  standalone: testExtension,
};
