// spindle.commands on the host: each extension's command palette entries, checked and trimmed as Lumiverse checks
// them (at most 20; an id and a label; label 80, description 200 characters; 10 keywords of 30; a known scope),
// kept while its worker runs and shown on its card, where the person runs one.
import type { HandlersOf } from './handlers';

export const MAX_COMMANDS_PER_EXTENSION = 20;
const SCOPES = ['global', 'chat', 'chat-idle', 'landing', 'character'] as const;
export type CommandScope = (typeof SCOPES)[number];

export interface ExtensionCommand {
  id: string;
  label: string;
  description: string;
  keywords?: string[];
  scope?: CommandScope;
}

/** Lumiverse's handleCommandsRegister: bad entries and repeated ids left out, the rest trimmed to its limits. */
export function checkedCommands(input: readonly unknown[]): ExtensionCommand[] {
  const seen = new Set<string>();
  const out: ExtensionCommand[] = [];
  for (const item of input.slice(0, MAX_COMMANDS_PER_EXTENSION)) {
    const c = (item ?? {}) as Record<string, unknown>;
    if (typeof c.id !== 'string' || !c.id.trim() || typeof c.label !== 'string' || !c.label || seen.has(c.id)) continue;
    seen.add(c.id);
    const keywords = Array.isArray(c.keywords) ? c.keywords.filter((k): k is string => typeof k === 'string').slice(0, 10).map((k) => k.slice(0, 30)) : undefined;
    out.push({
      id: c.id.slice(0, 100),
      label: c.label.slice(0, 80),
      description: (typeof c.description === 'string' ? c.description : '').slice(0, 200),
      ...(keywords ? { keywords } : {}),
      ...((SCOPES as readonly unknown[]).includes(c.scope) ? { scope: c.scope as CommandScope } : {}),
    });
  }
  return out;
}

export class ExtensionCommands {
  private readonly byExtension = new Map<string, ExtensionCommand[]>();

  constructor(private readonly changed: (extensionId: string) => void) {}

  list(extensionId: string): ExtensionCommand[] {
    return this.byExtension.get(extensionId) ?? [];
  }

  find(extensionId: string, commandId: string): ExtensionCommand | null {
    return this.list(extensionId).find((c) => c.id === commandId) ?? null;
  }

  /** Its worker stopped: its commands go with it, as in Lumiverse. */
  clear(extensionId: string): void {
    if (this.byExtension.delete(extensionId)) this.changed(extensionId);
  }

  handlers(): HandlersOf<'commands'> {
    return {
      'commands.register': ({ commands }, caller) => {
        this.set(caller.extensionId, checkedCommands(commands));
        return null;
      },
      'commands.unregister': ({ commandIds }, caller) => {
        const drop = new Set(commandIds ?? []);
        this.set(caller.extensionId, drop.size ? this.list(caller.extensionId).filter((c) => !drop.has(c.id)) : []);
        return null;
      },
    };
  }

  /** Its card is told only of a real change: an extension that registers the same list each turn sends the window nothing. */
  private set(extensionId: string, commands: ExtensionCommand[]): void {
    if (JSON.stringify(commands) === JSON.stringify(this.list(extensionId))) return;
    if (commands.length) this.byExtension.set(extensionId, commands);
    else this.byExtension.delete(extensionId);
    this.changed(extensionId);
  }
}
