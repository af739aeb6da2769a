// Builds an extension that ships its TypeScript source but no build, as Lumiverse does with
// `bun build src/backend.ts --outfile <entry_backend> --target bun`: esbuild, one ESM bundle for Node.
//
// esbuild runs in its own process (the host's event loop stays free) and never runs extension code.
// Dependencies are not installed: what src/ imports must be in the folder (or a Node built-in).
import path from 'node:path';
import { build, type Message } from 'esbuild';
import { HostFailure } from '../../../shared/errors';

export interface BuildResult {
  /** The entry written, relative to the folder. */
  output: string;
  warnings: string[];
}

/** `src/backend.ts:12:5: Could not resolve "lodash"` — where and what, as a person reads it. */
function describe(message: Message, folder: string): string {
  const where = message.location ? `${path.relative(folder, path.resolve(folder, message.location.file)) || message.location.file}:${message.location.line}:${message.location.column + 1}: ` : '';
  return `${where}${message.text}`;
}

export async function buildExtensionEntry(folder: string, source: string, entry: string, progress: (line: string) => void): Promise<BuildResult> {
  const relSource = path.relative(folder, source);
  const relEntry = path.relative(folder, entry);
  progress(`Building ${relSource} → ${relEntry}…`);
  try {
    const result = await build({
      absWorkingDir: folder,
      entryPoints: [source],
      outfile: entry,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'silent',
      // The build reads only the extension's own folder.
      nodePaths: [],
    });
    const warnings = result.warnings.map((w) => describe(w, folder));
    for (const warning of warnings) progress(`warning: ${warning}`);
    progress(`Built ${relEntry}.`);
    return { output: relEntry, warnings };
  } catch (err) {
    const errors = ((err as { errors?: Message[] }).errors ?? []).map((m) => describe(m, folder));
    const first = errors[0] ?? (err as Error).message;
    throw new HostFailure({
      code: 'BUILD_FAILED',
      message: `Building ${relSource} failed: ${first}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`,
      hint: errors.length > 1 ? errors.slice(1, 6).join('\n') : 'Fix the source, or ship the built entry (entry_backend) with the extension.',
      path: `/${relSource}`,
    });
  }
}
