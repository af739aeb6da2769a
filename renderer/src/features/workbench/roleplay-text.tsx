// A message's text as role-play readers expect it: Markdown (headings, lists, quotes, code blocks, rules, bold,
// links, images: message-image.tsx), *actions* in italics and "speech" set apart, and a few HTML tags (b, i, em,
// strong, u, s, small; img) as what they mean. Nothing is parsed into markup: every character of the text stays a text node (the syntax in spans the
// style hides), so no model output becomes HTML, and the text, a search and the tests read it as it was written.
// Text is cut into blocks whose boundaries never move as a reply streams: a finished block keeps its props and is
// neither parsed nor drawn again; only the growing last one is.
import { memo, type ReactNode } from 'react';
import { MessageImage } from './message-image';
import { textLines, textPieces } from './text-pieces';

/** A line that opens (or, with its mark again, closes) a code fence. */
export const FENCE = /^ {0,3}(```|~~~)/;
const BLANK = /^[ \t]*$/;

/**
 * Splits `text` into consecutive blocks (joined, they are `text`): a block ends after a run of blank lines once a
 * line with text follows, after a closing code fence once anything follows, and before an opening one.
 */
export function textBlocks(text: string): string[] {
  const blocks: string[] = [];
  let start = 0;
  let fence: string | null = null;
  let blankRun = false;
  let cutNext = false;
  let content = false;
  for (let at = 0; at < text.length; ) {
    const br = text.indexOf('\n', at);
    const end = br < 0 ? text.length : br + 1;
    const line = text.slice(at, br < 0 ? text.length : br);
    const opener: RegExpExecArray | null = fence === null ? FENCE.exec(line) : null;
    const cut = at > start && content && (cutNext || (fence === null && ((blankRun && !BLANK.test(line)) || opener !== null)));
    if (cut) {
      blocks.push(text.slice(start, at));
      start = at;
      content = false;
    }
    cutNext = false;
    if (fence !== null) {
      if (line.trimStart().startsWith(fence) && br >= 0) {
        fence = null;
        cutNext = true;
      }
    } else if (opener) {
      fence = opener[1]!;
    }
    blankRun = fence === null && BLANK.test(line);
    if (!BLANK.test(line)) content = true;
    at = end;
  }
  if (start < text.length || blocks.length === 0) blocks.push(text.slice(start));
  return blocks;
}

/** Syntax kept in the text but not shown. */
const mark = (text: string, key: string | number) => (
  <span key={key} className="md-mark">
    {text}
  </span>
);

// One pattern for the inline forms; each alternative's groups are read in `inline` below.
const INLINE =
  /(`+)([^`\n]+?)\1|\*\*([^*\n]+?)\*\*|\*([^*\n]+?)\*|(?<![\p{L}\p{N}])_([^_\n]+?)_(?![\p{L}\p{N}])|~~([^~\n]+?)~~|"([^"\n]+?)"|“([^”\n]+?)”|<(b|i|em|strong|u|s|small)>([^<\n]*?)<\/\9>|\[([^\]\n]+)\]\((https?:\/\/[^\s)]+)\)|!\[([^\]\n]*)\]\(([^\s)]+)\)|<img\b[^>\n]*?\bsrc=(["'])([^"'\n]+)\15[^>\n]*>/gu;
const TAGS = { b: 'strong', strong: 'strong', i: 'em', em: 'em', u: 'u', s: 's', small: 'small' } as const;

/** A line's inline forms, nested up to a few levels (*an action with "speech" in it*). */
function inline(text: string, depth = 0): ReactNode[] {
  const out: ReactNode[] = [];
  let at = 0;
  const inner = (s: string) => (depth < 3 ? inline(s, depth + 1) : [s]);
  for (const m of text.matchAll(INLINE)) {
    const start = m.index;
    if (start > at) out.push(...textPieces(text.slice(at, start)));
    const k = out.length;
    if (m[1] !== undefined) out.push(<code key={k} className="md-code-inline">{[mark(m[1], 'open'), m[2], mark(m[1], 'close')]}</code>);
    else if (m[3] !== undefined) out.push(<strong key={k}>{[mark('**', 'open'), ...inner(m[3]), mark('**', 'close')]}</strong>);
    else if (m[4] !== undefined) out.push(<em key={k} className="md-action">{[mark('*', 'open'), ...inner(m[4]), mark('*', 'close')]}</em>);
    else if (m[5] !== undefined) out.push(<em key={k}>{[mark('_', 'open'), ...inner(m[5]), mark('_', 'close')]}</em>);
    else if (m[6] !== undefined) out.push(<s key={k}>{[mark('~~', 'open'), ...inner(m[6]), mark('~~', 'close')]}</s>);
    else if (m[7] !== undefined || m[8] !== undefined) out.push(<span key={k} className="md-speech">{[m[0][0], ...inner((m[7] ?? m[8])!), m[0].at(-1)]}</span>);
    else if (m[9] !== undefined) {
      const Tag = TAGS[m[9] as keyof typeof TAGS];
      out.push(<Tag key={k}>{[mark(`<${m[9]}>`, 'open'), ...inner(m[10]!), mark(`</${m[9]}>`, 'close')]}</Tag>);
    } else if (m[11] !== undefined) out.push(<span key={k} className="md-link" title={m[12]}>{[mark('[', 'open'), ...inner(m[11]!), mark(`](${m[12]})`, 'close')]}</span>);
    else if (m[14] !== undefined) out.push(<MessageImage key={k} text={m[0]} src={m[14]} alt={m[13]!} />);
    else out.push(<MessageImage key={k} text={m[0]} src={m[16]!} alt={/\balt=(["'])([^"'\n]*)\1/.exec(m[0])?.[2] ?? ''} />);
    at = start + m[0].length;
  }
  if (at < text.length) out.push(...textPieces(text.slice(at)));
  return out;
}

/** A line of a block that is not code: its kind by how it starts, its prefix kept in the text. */
function Line(props: { line: string; caret: ReactNode }) {
  const { line } = props;
  // The run of line breaks that closes the line stays at its end (see textLines).
  const body = line.replace(/\n+$/, '');
  const close = line.slice(body.length);
  const heading = /^ {0,3}(#{1,6}) +/.exec(body);
  // A styled line keeps one break; a blank line after it is drawn outside it (not inside a quote's border).
  const after =
    close.length > 1 ? (
      <div className="msg__line">
        {close.slice(1)}
        {props.caret}
      </div>
    ) : null;
  if (heading) {
    return (
      <>
        <div className={`msg__line md-heading md-h${heading[1]!.length}`} role="heading" aria-level={Math.min(6, heading[1]!.length + 2)}>
          {mark(heading[0], 'm')}
          {inline(body.slice(heading[0].length))}
          {close.slice(0, 1)}
          {after ? null : props.caret}
        </div>
        {after}
      </>
    );
  }
  if (/^ {0,3}([-*_])( *\1){2,} *$/.test(body)) {
    return (
      <div className="msg__line md-rule" role="separator">
        {mark(body, 'm')}
        {close}
        {props.caret}
      </div>
    );
  }
  const quote = /^ {0,3}> ?/.exec(body);
  const item = /^ {0,3}([-*+]|\d{1,9}[.)]) +/.exec(body);
  const prefix = quote ?? item;
  if (!prefix) {
    return (
      <div className="msg__line">
        {inline(body)}
        {close}
        {props.caret}
      </div>
    );
  }
  return (
    <>
      <div className={`msg__line ${quote ? 'md-quote' : 'md-item'}`}>
        {quote ? mark(quote[0], 'm') : <span className={`md-bullet${/^[-*+]$/.test(item![1]!) ? ' md-bullet--dot' : ''}`}>{item![0]}</span>}
        {inline(body.slice(prefix[0].length))}
        {close.slice(0, 1)}
        {after ? null : props.caret}
      </div>
      {after}
    </>
  );
}

/** One block of a message; finished blocks keep their text, so they are neither parsed nor laid out again. */
export const TextBlock = memo(function TextBlock(props: { text: string; caret: boolean }) {
  const caret = props.caret ? <span className="msg__caret" aria-hidden="true" /> : null;
  const fence = FENCE.exec(props.text);
  if (fence) {
    const firstBreak = props.text.indexOf('\n');
    const open = firstBreak < 0 ? props.text : props.text.slice(0, firstBreak + 1);
    const rest = firstBreak < 0 ? '' : props.text.slice(firstBreak + 1);
    const closing = /(^|\n) {0,3}(```|~~~)[ \t]*\n*$/.exec(rest);
    const code = closing ? rest.slice(0, closing.index + closing[1]!.length) : rest;
    const lang = open.replace(FENCE, '').trim().split(/\s/, 1)[0];
    return (
      <pre className="md-code" data-lang={lang || undefined}>
        {mark(open, 'o')}
        <code>{textPieces(code)}</code>
        {closing && mark(rest.slice(code.length), 'c')}
        {caret}
      </pre>
    );
  }
  const lines = textLines(props.text);
  return (
    <div className="md-block">
      {lines.map((line, i) => (
        <Line key={i} line={line} caret={i === lines.length - 1 ? caret : null} />
      ))}
    </div>
  );
});

/** A message's text in blocks (see textBlocks), the caret at the end of the last while it streams. */
export function RoleplayText(props: { text: string; caret?: boolean }) {
  const blocks = textBlocks(props.text);
  return blocks.map((block, i) => <TextBlock key={i} text={block} caret={props.caret === true && i === blocks.length - 1} />);
}
