// A member's avatar: the pack item's image (packs.avatar data URL, read once and kept) or its initials.
import { useEffect } from 'react';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { loadAvatar } from '../../stores/council/council-commands';
import { avatarKey } from '../../stores/council/council-slice';

export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0]![0], words[words.length - 1]![0]] : [...(words[0] ?? '?')].slice(0, 2);
  return letters.join('').toUpperCase();
}

/** Subscribes to one avatar and asks for it when the member has one; null while unknown or absent. */
export function useAvatar(packId: string, itemId: string, hasAvatar: boolean): string | null {
  const store = useAppStoreApi();
  const host = useHost();
  const key = avatarKey(packId, itemId);
  const url = useAppStore((s) => (Object.prototype.hasOwnProperty.call(s.council.avatars, key) ? s.council.avatars[key]! : null));
  const known = useAppStore((s) => Object.prototype.hasOwnProperty.call(s.council.avatars, key));
  useEffect(() => {
    if (hasAvatar && !known) void loadAvatar(store, host, packId, itemId);
  }, [store, host, packId, itemId, hasAvatar, known]);
  return hasAvatar ? url : null;
}

export function Avatar(props: { packId: string; itemId: string; hasAvatar: boolean; name: string; size?: 'sm' | 'md'; missing?: boolean }) {
  const url = useAvatar(props.packId, props.itemId, props.hasAvatar);
  const cls = `avatar avatar--${props.size ?? 'md'}${props.missing ? ' avatar--missing' : ''}`;
  // Decorative: the name is always written next to it.
  if (url) return <img className={cls} src={url} alt="" aria-hidden="true" draggable={false} />;
  return (
    <span className={cls} aria-hidden="true">
      {initialsOf(props.name)}
    </span>
  );
}
