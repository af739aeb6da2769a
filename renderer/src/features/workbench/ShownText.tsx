// A message's text as shown: through the display regex scripts that apply to the chat (regex-display.ts), then drawn
// as role-play text.
import { RoleplayText } from './roleplay-text';
import { useDisplayText } from './regex-display';

export function ShownText(props: { sessionId: string; role: 'user' | 'assistant'; depth: number; text: string; caret?: boolean }) {
  const text = useDisplayText(props.sessionId, props.text, props.role, props.depth);
  return <RoleplayText text={text} {...(props.caret ? { caret: true } : {})} />;
}
