// R7: a tool whose definition changes while it is registered (the same source sends a new description or
// schema: an extension or MCP server changing what the model reads after it was installed) asks a person
// before its next call, whatever its mode or approval settings; once approved it runs as before.
import type { ToolInfo } from '../../../shared/types/tools';
import type { ToolRegistry } from '../registry/tool-registry';

export class RedefinedTools {
  /** Qualified names whose current definition nobody has approved yet. */
  private readonly pending = new Set<string>();
  private readonly off: () => void;

  constructor(registry: ToolRegistry) {
    this.off = registry.onEvent((event) => {
      if (event.type === 'tool.replaced' && event.definitionChanged) this.pending.add(event.tool.qualifiedName);
      else if (event.type === 'tool.unregistered') this.pending.delete(event.qualifiedName);
    });
  }

  needsApproval(info: ToolInfo): boolean {
    return this.pending.has(info.qualifiedName);
  }

  /** A person approved a call of this definition: later calls run without asking for this reason. */
  accept(info: ToolInfo): void {
    this.pending.delete(info.qualifiedName);
  }

  dispose(): void {
    this.off();
  }
}
