// The card extensions a character editor tab changes (ctx.ui.characterEditor.updateExtensions), saved as Lumiverse
// saves them: each character's latest change after 2 s, or at once; one save at a time, in the order asked. What the
// editor shows is the change waiting, else the one being saved, else the one saved (until the app tells of the card
// changing: the save itself, or another's), else the card as the app told it, so no change is built on a stale card.
import type { CharacterEditorState } from '../../shared/frames/host-state';

export type Extensions = Record<string, unknown>;

/** How long Lumiverse waits before saving a changed card's extensions. */
export const EXTENSIONS_SAVE_DELAY_MS = 2000;

export class CardExtensionsDrafts {
  private readonly pending = new Map<string, Extensions>();
  private readonly inFlight = new Map<string, Extensions>();
  private saved: { characterId: string; extensions: Extensions; toldWas: string } | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly save: (characterId: string, extensions: Extensions) => Promise<unknown>,
    private readonly told: () => CharacterEditorState,
  ) {}

  /** The character's extensions as this frontend last made them, else as the app told them. */
  current(editor: CharacterEditorState): Extensions {
    const id = editor.characterId;
    if (id === null) return editor.extensions;
    const own = this.pending.get(id) ?? this.inFlight.get(id);
    if (own) return own;
    if (this.saved?.characterId === id && this.saved.toldWas === JSON.stringify(editor.extensions)) return this.saved.extensions;
    return editor.extensions;
  }

  /** A change to save: at once, or with the character's other changes after the delay. */
  change(characterId: string, extensions: Extensions, immediate: boolean): Promise<void> {
    this.pending.set(characterId, extensions);
    clearTimeout(this.timer);
    if (immediate) return this.flush();
    this.timer = setTimeout(() => void this.flush().catch((err: unknown) => console.error(err)), EXTENSIONS_SAVE_DELAY_MS);
    return Promise.resolve();
  }

  /** Saves every change waiting, after the saves already asked for; rejects with the first refusal (that change waits on). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    const run = this.chain.then(() => this.saveAll());
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async saveAll(): Promise<void> {
    for (const [characterId, extensions] of [...this.pending]) {
      this.pending.delete(characterId);
      this.inFlight.set(characterId, extensions);
      const editor = this.told();
      const toldWas = editor.characterId === characterId ? JSON.stringify(editor.extensions) : '';
      try {
        await this.save(characterId, extensions);
        this.saved = { characterId, extensions, toldWas };
      } catch (err) {
        // Not saved: it waits for the next flush, unless a newer change (built on it) waits already.
        if (!this.pending.has(characterId)) this.pending.set(characterId, extensions);
        throw err;
      } finally {
        if (this.inFlight.get(characterId) === extensions) this.inFlight.delete(characterId);
      }
    }
  }
}
