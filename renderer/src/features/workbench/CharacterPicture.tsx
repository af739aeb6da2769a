// The session's character picture (kept from an imported PNG card), asked for once per session and picture by the
// open session's panel; shown in its header and beside each of the character's messages.
import { useEffect, useState } from 'react';
import type { ChatSession } from '../../../../shared/types/chat';
import { useHost } from '../../app/context';
import { loadSessionPicture } from '../../stores/chat/chat-commands';

/** The picture as a data URL, or null (none, or not read yet). */
export function useCharacterPicture(session: Pick<ChatSession, 'id' | 'avatar'> | null): string | null {
  const host = useHost();
  const id = session?.id ?? null;
  const bytes = session?.avatar?.bytes;
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    setUrl(null);
    if (id === null || bytes === undefined) return;
    let live = true;
    void loadSessionPicture(host, id).then((result) => {
      if (live && result.ok && result.value.dataUrl?.startsWith('data:image/png;base64,')) setUrl(result.value.dataUrl);
    });
    return () => {
      live = false;
    };
    // The picture's size, not its object (new on each copy of the session read): asked for once.
  }, [host, id, bytes]);
  return url;
}

export function CharacterPicture(props: { name: string; url: string | null }) {
  if (!props.url) return null;
  return <img className="session-header__avatar" src={props.url} alt={`${props.name}'s picture`} data-testid="character-picture" />;
}

/** Who speaks, beside their message: the picture when there is one, else the name's first letter. */
export function MessageAvatar(props: { name: string; picture?: string | null }) {
  return (
    <span className="msg__avatar" aria-hidden="true" data-testid="message-avatar">
      {props.picture ? <img src={props.picture} alt="" /> : ([...props.name.trim()][0] ?? '?').toUpperCase()}
    </span>
  );
}
