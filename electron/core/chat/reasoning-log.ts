// What a reasoning model thought during a turn, and for how long: kept on the reply (never sent back in a prompt),
// shown folded above it, and handed to extensions as Lumiverse's extra.reasoning and extra.reasoningDuration.
import { SESSION_LIMITS } from '../../../shared/types/chat';

export class ReasoningLog {
  private readonly parts: string[] = [];
  private length = 0;
  private startedAt: number | null = null;
  private spentMs = 0;

  constructor(private readonly now: () => number) {}

  /**
   * A piece of thinking; returns it as it joins the log (a span after the model wrote or called starts on a new
   * paragraph), or nothing past what a reply keeps (the rest is neither kept nor shown).
   */
  add(text: string): string {
    if (this.length >= SESSION_LIMITS.messageContent) return '';
    let piece = text;
    if (this.startedAt === null) {
      this.startedAt = this.now();
      if (this.length > 0) piece = `\n\n${text}`;
    }
    this.parts.push(piece);
    this.length += piece.length;
    return piece;
  }

  /** The model wrote or called something, or its response ended: the clock stops until it thinks again. */
  pause(): void {
    if (this.startedAt === null) return;
    this.spentMs += Math.max(0, this.now() - this.startedAt);
    this.startedAt = null;
  }

  /** The reply's fields: none when the model did not think aloud. */
  fields(): { reasoning?: string; reasoningMs?: number } {
    this.pause();
    if (this.length === 0) return {};
    return { reasoning: this.parts.join('').slice(0, SESSION_LIMITS.messageContent), reasoningMs: this.spentMs };
  }
}
