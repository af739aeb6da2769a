// The session's character picture (kept from an imported PNG card), asked for once per session and picture.
import { useEffect, useState } from 'react';
import type { ChatSession } from '../../../../shared/types/chat';
import { useHost } from '../../app/context';
import { loadSessionPicture } from '../../stores/chat/chat-commands';

export function CharacterPicture(props: { session: ChatSession }) {
  const host = useHost();
  const { id, avatar } = props.session;
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    setUrl(null);
    if (!avatar) return;
    let live = true;
    void loadSessionPicture(host, id).then((result) => {
      if (live && result.ok && result.value.dataUrl?.startsWith('data:image/png;base64,')) setUrl(result.value.dataUrl);
    });
    return () => {
      live = false;
    };
  }, [host, id, avatar?.bytes, avatar]);
  if (!url) return null;
  return <img className="session-header__avatar" src={url} alt={`${props.session.character.name}'s picture`} data-testid="character-picture" />;
}
