// Puts the council prompt tools (built-in and pack-supplied) in the tool registry as read-only, council-eligible builtins whose executor asks the sidecar.
import type { PackTool } from '../../../shared/types/council';
import type { ExecuteRequest, ExecuteResult, ToolExecutor } from '../registry-port';
import type { ToolRegistry } from '../registry/tool-registry';
import type { PackStore } from '../packs/pack-store';
import type { Logger } from '../ports';
import { BUILTIN_PROMPT_TOOLS, BUILTIN_SOURCE_ID } from './builtin-tools';
import type { KeyedLimiter } from './limiter';
import { capWords, maxTokensFor, promptToolPrompt, promptToolSystem, toHostError, type PromptToolSettings } from './prompt-tool';
import { SIDECAR_NOT_CONFIGURED, type SidecarPort } from './sidecar-port';

export const packSourceId = (packId: string) => `pack.${packId}`;
export const packToolQualifiedName = (packId: string, toolName: string) => `${packSourceId(packId)}:${toolName}`;

export interface PromptToolDeps {
  registry: ToolRegistry;
  packs: PackStore;
  sidecar: () => SidecarPort;
  limiter: KeyedLimiter;
  settings: () => PromptToolSettings;
  log: Logger;
}

export function promptToolExecutor(tool: PackTool, deps: Pick<PromptToolDeps, 'sidecar' | 'limiter' | 'settings'>): ToolExecutor {
  return {
    async execute(request: ExecuteRequest): Promise<ExecuteResult> {
      const sidecar = deps.sidecar();
      if (!sidecar.isConfigured()) return { ok: false, error: SIDECAR_NOT_CONFIGURED };
      const settings = deps.settings();
      let release: (() => void) | undefined;
      try {
        release = await deps.limiter.acquire(sidecar.connectionKey(), request.signal);
        const context = typeof request.args.context === 'string' ? request.args.context : '';
        const maxTokens = maxTokensFor(settings.maxWordsPerTool);
        const text = await sidecar.complete(
          {
            system: promptToolSystem(tool, request.councilMember, settings),
            prompt: promptToolPrompt(context),
            ...(maxTokens ? { maxTokens } : {}),
          },
          request.signal,
        );
        return { ok: true, value: capWords(text, settings.maxWordsPerTool) };
      } catch (err) {
        if (request.signal.aborted) return { ok: false, error: { code: 'CANCELLED', message: `${tool.displayName} was cancelled.` } };
        return { ok: false, error: toHostError(err) };
      } finally {
        release?.();
      }
    },
  };
}

function registration(tool: PackTool) {
  return {
    name: tool.name,
    display_name: tool.displayName,
    description: tool.description,
    parameters: { type: 'object', properties: {} },
    council_eligible: true,
    mode: 'read' as const,
  };
}

/** Registers the built-ins now and keeps pack tools in step with the installed packs. */
export function installPromptTools(deps: PromptToolDeps): () => void {
  for (const tool of BUILTIN_PROMPT_TOOLS) {
    const result = deps.registry.register({ kind: 'builtin', id: BUILTIN_SOURCE_ID }, registration(tool), promptToolExecutor(tool, deps));
    if (!result.ok) deps.log.error(`council: built-in tool ${tool.name} rejected: ${result.error.message}`);
  }
  const registered = new Set<string>();
  const sync = () => {
    const wanted = new Set<string>();
    for (const stored of deps.packs.unordered()) {
      const source = packSourceId(stored.pack.id);
      wanted.add(source);
      deps.registry.unregisterAll(source);
      for (const tool of stored.pack.tools ?? []) {
        const result = deps.registry.register({ kind: 'builtin', id: source }, registration(tool), promptToolExecutor(tool, deps));
        if (!result.ok) deps.log.warn(`council: pack tool ${source}:${tool.name} rejected: ${result.error.message}`);
      }
    }
    for (const source of registered) if (!wanted.has(source)) deps.registry.unregisterAll(source);
    registered.clear();
    for (const s of wanted) registered.add(s);
  };
  sync();
  const off = deps.packs.onChange(sync);
  return () => {
    off();
    deps.registry.unregisterAll(BUILTIN_SOURCE_ID);
    for (const source of registered) deps.registry.unregisterAll(source);
  };
}
