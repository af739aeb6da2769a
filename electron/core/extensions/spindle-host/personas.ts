// spindle.personas (permission personas) in Lumiverse's shapes, over two kinds of persona: each session's own (a
// Workbench chat holds one; its id is persona-<session>) and the personas of their own an extension made
// (personas/persona-library.ts). Switching to one makes it the open chat's persona, as Lumiverse's active persona is
// the one its chats are written as; a chat's own persona is edited in place and is never deleted.
import { personaIdOf } from '../../../../shared/spindle/lumiverse-ids';
import type { LibraryPersona } from '../../personas/persona-library';
import type { ChatReads, ChatView } from './chat-data';
import { fail, type HandlersOf } from './handlers';
import { page, seconds } from './lumiverse-dto';

/** A session's persona as Lumiverse's PersonaDTO (the open chat's is the default, as the one it is written as). */
export const personaDto = (c: ChatView) => ({
  id: personaIdOf(c.id),
  name: c.persona.name,
  title: '',
  description: c.persona.description,
  image_id: null,
  attached_world_book_id: null,
  folder: '',
  is_default: true,
  metadata: {},
  created_at: seconds(c.createdAt),
  updated_at: seconds(c.updatedAt),
});

const libraryDto = (p: LibraryPersona) => ({ ...p, image_id: null, attached_world_book_id: null, is_default: false });

export interface PersonaContext {
  reads(): ChatReads | null;
  all(): ChatView[];
  active(): ChatView | null;
}

export function personaHandlers(ctx: PersonaContext): HandlersOf<'personas'> {
  const sessionOf = (personaId: string) => ctx.all().find((c) => personaIdOf(c.id) === personaId) ?? null;
  const library = () => ctx.reads()?.personas ?? null;
  const found = (personaId: string) => {
    const session = sessionOf(personaId);
    if (session) return { session };
    const kept = library()?.get(personaId);
    return kept ? { kept } : fail('NOT_FOUND', 'Persona not found', '/personaId');
  };
  return {
    'personas.getActive': () => {
      const c = ctx.active();
      return c ? personaDto(c) : null;
    },
    'personas.getDefault': () => {
      const c = ctx.active();
      return c ? personaDto(c) : null;
    },
    'personas.get': ({ personaId }) => {
      const session = sessionOf(personaId);
      if (session) return personaDto(session);
      const kept = library()?.get(personaId);
      return kept ? libraryDto(kept) : null;
    },
    'personas.list': ({ options }) => page([...ctx.all().map(personaDto), ...(library()?.list().map(libraryDto) ?? [])], options),
    'personas.getWorldBook': () => null,
    'personas.create': ({ input }) => {
      const made = library() ?? fail('UNSUPPORTED_HERE', 'This host keeps no personas of their own.');
      return libraryDto(made.create(input));
    },
    'personas.update': ({ personaId, input }) => {
      const at = found(personaId);
      if (at.session) {
        // A chat's own persona holds a name and a description; its other fields have no place in it.
        ctx.reads()!.updatePersona(at.session.id, { ...(input.name !== undefined ? { name: input.name } : {}), ...(input.description !== undefined ? { description: input.description } : {}) });
        return personaDto(ctx.reads()!.head(at.session.id)!);
      }
      return libraryDto(library()!.update(personaId, input));
    },
    'personas.delete': ({ personaId }) => (sessionOf(personaId) ? false : (library()?.delete(personaId) ?? false)),
    'personas.switchActive': ({ personaId }) => {
      // None: Lumiverse clears its active persona; a chat here always has its own, so nothing changes.
      if (personaId === null || personaId === undefined) return null;
      const at = found(personaId);
      const open = ctx.active() ?? fail('NOT_FOUND', 'No chat is open: a persona here is the persona of a chat.', '/personaId');
      const from = at.session ? at.session.persona : at.kept!;
      if (at.session?.id !== open.id) ctx.reads()!.updatePersona(open.id, { name: from.name, description: from.description });
      return null;
    },
  };
}
