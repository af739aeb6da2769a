// A message's text as shown: through the display regex scripts that apply to the chat (regex-display.ts), then
// drawn as role-play text, its HTML blocks as HTML in sandbox frames (html-islands.ts, HtmlIsland.tsx) unless the
// person chose to see HTML as text.
import { useMemo } from 'react';
import { useAppStore } from '../../app/context';
import { htmlPieces } from './html-islands';
import { HtmlIsland } from './HtmlIsland';
import { RoleplayText } from './roleplay-text';
import { useDisplayText } from './regex-display';

export function ShownText(props: { sessionId: string; role: 'user' | 'assistant'; depth: number; text: string; caret?: boolean; messageId?: string | null }) {
  const text = useDisplayText(props.sessionId, props.text, props.role, props.depth, props.messageId ?? undefined);
  const asText = useAppStore((s) => s.settings?.chat?.htmlAsText === true);
  const pieces = useMemo(() => (asText ? [{ kind: 'text' as const, text }] : htmlPieces(text)), [text, asText]);
  return pieces.map((piece, i) =>
    piece.kind === 'html' ? (
      <HtmlIsland key={i} html={piece.html} />
    ) : (
      <RoleplayText key={i} text={piece.text} {...(props.caret && i === pieces.length - 1 ? { caret: true } : {})} />
    ),
  );
}
