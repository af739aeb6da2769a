// The chats a quick council run can analyse: a small built-in sample scene, or a Workbench session turned into the council's chat shape.
import type { ChatSession } from '../../../../shared/types/chat';
import type { CouncilChat } from '../../../../shared/types/council';

export const SAMPLE_CHAT_ID = 'council-panel-sample';

export const SAMPLE_CHAT: CouncilChat = {
  chatId: SAMPLE_CHAT_ID,
  character: {
    name: 'Captain Ilse Marrow',
    description: 'Captain of the airship Kestrel: scarred, sardonic, fiercely loyal to her crew. Lost her left hand in the Siege of Varn.',
    personality: 'Dry humour, short sentences, never admits fear aloud.',
    scenario: 'The Kestrel limps through a storm after a botched smuggling run; the cargo hold holds something that ticks.',
  },
  persona: { name: 'Tamsin', description: 'The new navigator, two weeks aboard, good with maps and bad at lying.' },
  worldInfo: [
    { keywords: ['Kestrel'], content: 'The Kestrel is a patched courier airship with a crew of six and a temperamental aether engine.' },
    { keywords: ['Varn'], content: 'Varn is a fortress city; its siege ended eight years ago with the crown victorious.' },
  ],
  messages: [
    { role: 'assistant', content: 'Marrow braces her good hand on the wheel as lightning splits the clouds. "Navigator. Tell me you know where we are."' },
    { role: 'user', content: 'I spread the wet chart on the console. "Forty miles east of Varn, Captain. And the crate in the hold started ticking an hour ago."' },
    { role: 'assistant', content: 'Her jaw tightens. "Ticking." A long pause. "Nobody opens that crate. Nobody so much as breathes on it."' },
    { role: 'user', content: 'I hesitate. "Captain… I already opened it. There is a clock inside, and a letter with your name on it. Sealed with the crown."' },
  ],
};

/** A Workbench session as the chat a council run reads (only enabled world info). */
export function sessionToChat(session: ChatSession): CouncilChat {
  const chat: CouncilChat = {
    chatId: session.id,
    messages: session.messages.map((m) => ({ role: m.role, content: m.content })),
  };
  if (session.character.name.trim()) {
    chat.character = {
      name: session.character.name,
      description: session.character.description,
      personality: session.character.personality,
      scenario: session.character.scenario,
    };
  }
  if (session.persona.name.trim()) chat.persona = { name: session.persona.name, description: session.persona.description };
  const worldInfo = session.worldInfo.filter((w) => w.enabled).map((w) => ({ keywords: [...w.keywords], content: w.content }));
  if (worldInfo.length) chat.worldInfo = worldInfo;
  return chat;
}
