// "Asking the host for …" while an answer can come: with no connection (no token, refused, lost) the status
// banner says what is wrong, and a promise of an answer under it would be false.
import type { ReactNode } from 'react';
import { useAppStore } from '../app/context';

export function AskingHost(props: { children: ReactNode; className?: string }) {
  const state = useAppStore((s) => s.connection.state);
  if (state !== 'connected' && state !== 'connecting') return null;
  return <p className={props.className ?? 'panel-note'}>Asking the host {props.children}…</p>;
}
