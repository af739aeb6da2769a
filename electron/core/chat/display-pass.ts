// What the window shows of a message, as Lumiverse's display pass makes it (src/services/display-regex.service.ts):
// the extensions' message content processors with origin `render` first (Lumi Toolkit's bionic reading, a tracker's
// tags expanded), then the display regex scripts. Nothing is saved. The window keeps what it was shown by a revision
// that moves when a script changes or when the processors that run do, so it asks again then.
import type { ExtensionPipeline } from '../extensions/pipeline/pipeline-bridge';
import type { Logger } from '../ports';
import type { RegexStore } from '../regex/regex-store';
import { processContent } from './pipeline/content-processors';

export interface DisplayItem {
  text: string;
  role: 'user' | 'assistant';
  depth: number;
  messageId?: string;
}

export class DisplayPass {
  /** How often the processors that run changed (added to the scripts' revision: both only grow). */
  private shift = 0;
  private signature = '';

  constructor(
    private readonly store: Pick<RegexStore, 'revision'>,
    private readonly pipeline: () => ExtensionPipeline | undefined,
    private readonly log: Logger,
  ) {}

  get revision(): number {
    return this.store.revision + this.shift;
  }

  /** How many processors a message shown goes through. */
  processors(): number {
    return this.pipeline()?.handlers('message_content_processor').length ?? 0;
  }

  /** After an extension changed: true when the processors that run changed (the revision moved). */
  refresh(): boolean {
    const signature = (this.pipeline()?.handlers('message_content_processor') ?? []).map((ref) => `${ref.extensionId}/${ref.id}/${ref.priority}`).join(',');
    if (signature === this.signature) return false;
    this.signature = signature;
    this.shift++;
    return true;
  }

  /**
   * The texts as the processors render them, side by side; a processor that fails on one text is not asked for the
   * others of this pass, so one that hangs costs its 10 s once, not once a message.
   */
  async render(chatId: string, items: DisplayItem[]): Promise<string[]> {
    const processors = this.pipeline()?.handlers('message_content_processor') ?? [];
    if (processors.length === 0) return items.map((item) => item.text);
    const failed = new Set<string>();
    return Promise.all(
      items.map(async (item) => {
        if (!item.text) return item.text;
        const extra = { role: item.role, is_user: item.role === 'user' };
        const write = { chatId, ...(item.messageId ? { messageId: item.messageId } : {}), content: item.text, isUser: item.role === 'user', extra, origin: 'render' as const };
        const shown = await processContent(processors, write, this.log, undefined, failed);
        return shown.content;
      }),
    );
  }
}
