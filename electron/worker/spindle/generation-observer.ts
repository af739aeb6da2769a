// spindle.generate.observe(chatId), as Lumiverse has it: a handle that follows the generations of one chat through the
// host's events (started, each streamed batch, ended, stopped), keeping the text streamed so far. Its events carry what
// the extension's permissions allow (shared/spindle/event-access.ts): without chat_mutation no text reaches it.

type Payload = { chatId?: unknown; generationId?: unknown; token?: unknown; type?: unknown };
type On = (event: string, handler: (payload: unknown) => void) => () => void;

export function observeGeneration(on: On, chatId: string) {
  const handlers = { start: new Set<(p: unknown) => void>(), token: new Set<(p: unknown) => void>(), end: new Set<(p: unknown) => void>(), stop: new Set<(p: unknown) => void>() };
  let content = '';
  let reasoning = '';
  let generationId: string | null = null;
  const mine = (handler: (p: Payload) => void) => (payload: unknown) => {
    if ((payload as Payload | null)?.chatId === chatId) handler(payload as Payload);
  };
  const tell = (set: Set<(p: unknown) => void>, payload: unknown) => {
    for (const handler of [...set]) handler(payload);
  };
  const offs = [
    on('GENERATION_STARTED', mine((p) => {
      content = '';
      reasoning = '';
      generationId = typeof p.generationId === 'string' ? p.generationId : null;
      tell(handlers.start, p);
    })),
    on('STREAM_TOKEN_RECEIVED', mine((p) => {
      const token = typeof p.token === 'string' ? p.token : '';
      if (p.type === 'reasoning') reasoning += token;
      else content += token;
      tell(handlers.token, p);
    })),
    on('GENERATION_ENDED', mine((p) => {
      generationId = null;
      tell(handlers.end, p);
    })),
    on('GENERATION_STOPPED', mine((p) => {
      generationId = null;
      tell(handlers.stop, p);
    })),
  ];
  return {
    onStart: (handler: (p: unknown) => void) => void handlers.start.add(handler),
    onToken: (handler: (p: unknown) => void) => void handlers.token.add(handler),
    onEnd: (handler: (p: unknown) => void) => void handlers.end.add(handler),
    onStop: (handler: (p: unknown) => void) => void handlers.stop.add(handler),
    get content() {
      return content;
    },
    get reasoning() {
      return reasoning;
    },
    get generationId() {
      return generationId;
    },
    dispose() {
      for (const off of offs.splice(0)) off();
      for (const set of Object.values(handlers)) set.clear();
    },
  };
}
