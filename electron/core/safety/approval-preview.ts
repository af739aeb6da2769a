// What an approval dialog shows for a write tool: the source's own preview (the note tools), or a diff
// inferred from a tool with one write path and a string `content`.
import fs from 'node:fs';
import path from 'node:path';
import type { ApprovalDiff } from '../../../shared/types/safety';
import type { ToolRegistrationDTO } from '../../../shared/types/spindle';
import type { ToolInfo } from '../../../shared/types/tools';
import { unifiedDiff } from '../../../shared/text/line-diff';
import type { Logger } from '../ports';

/**
 * Computes a before/after preview for a write tool of one source (the note tools). `mayWrite` is the
 * caller's write check, for writes beyond the path arguments (see ExecuteRequest.mayWrite).
 */
export type PreviewProvider = (toolName: string, args: Record<string, unknown>, mayWrite?: (path: string) => boolean) => Promise<ApprovalDiff | null>;

const MAX_PREVIEW_BYTES = 1024 * 1024;

export class ApprovalPreviews {
  private readonly providers = new Map<string, PreviewProvider>();

  constructor(
    private readonly notesRoot: string,
    private readonly log: Logger,
  ) {}

  setProvider(sourceId: string, provider: PreviewProvider): () => void {
    this.providers.set(sourceId, provider);
    return () => {
      if (this.providers.get(sourceId) === provider) this.providers.delete(sourceId);
    };
  }

  /** Never throws: a preview that fails leaves the dialog without one. */
  async preview(info: ToolInfo, definition: Readonly<ToolRegistrationDTO>, args: Record<string, unknown>, mayWrite?: (path: string) => boolean): Promise<ApprovalDiff | null> {
    const sourceId = info.qualifiedName.slice(0, info.qualifiedName.indexOf(':'));
    const provider = this.providers.get(sourceId);
    try {
      if (provider && info.source === 'builtin') return await provider(info.name, args, mayWrite);
      return await this.inferred(definition, args);
    } catch (error) {
      this.log.warn('approval preview failed', { tool: info.qualifiedName, error: (error as Error).message });
      return null;
    }
  }

  /** A tool with one write path and a string `content` argument: assume it writes content as the whole file. */
  private async inferred(definition: Readonly<ToolRegistrationDTO>, args: Record<string, unknown>): Promise<ApprovalDiff | null> {
    const params = definition.write_path_param === undefined ? [] : ([] as string[]).concat(definition.write_path_param);
    const target = params.length === 1 ? args[params[0]!] : undefined;
    if (typeof target !== 'string' || target === '' || typeof args.content !== 'string' || path.posix.isAbsolute(target)) return null;
    const root = await fs.promises.realpath(this.notesRoot).catch(() => null);
    if (!root) return null;
    const file = path.join(root, ...target.split('/'));
    let before = '';
    let created = true;
    try {
      const real = await fs.promises.realpath(file);
      if (real !== root && !real.startsWith(root + path.sep)) return null;
      const stat = await fs.promises.stat(real);
      if (!stat.isFile() || stat.size > MAX_PREVIEW_BYTES) return null;
      before = await fs.promises.readFile(real, 'utf8');
      created = false;
    } catch {
      // Not there yet: the preview shows a new file.
    }
    const after = args.content;
    return { path: target, before, after, unified: unifiedDiff(target, before, after, { created }), created, inferred: true };
  }
}
