// The conversation: saved messages, then the live turn — the council's part, tool-call cards, streamed text, its end or error.
// Every piece of model and tool output is a text node; nothing is parsed as markup. The list is virtualized
// (react-virtuoso, in the main scroll area): only the messages near the view are in the document.
import { useChatViewPlace } from '../frontends/chat-view-news';
import { forwardRef, memo, useMemo, useRef, useState, type HTMLAttributes, type RefObject } from 'react';
import { Virtuoso, type ItemProps, type VirtuosoHandle } from 'react-virtuoso';
import type { ChatSession } from '../../../../shared/types/chat';
import type { LiveTurn } from '../../stores/chat/chat-turns';
import { ChatRow, TurnProvider, useRows, type Row } from './chat-rows';
import { useButtonsWaitForReply } from './reply-wait';
import { DryRunPreview } from './DryRunPreview';
import { useRovingMessages } from './roving-messages';
import { useAppStore } from '../../app/context';
import { atNewest } from '../../stores/chat/chat-slice';
import { EarlierMessages, LaterMessages } from './ChatWindowEdges';
import { useFocusRequested, useKeepInView, useStickToBottom } from './chat-scroll';

/** What the rows' slots know: the message a search found (marked until another is asked for). */
interface SlotContext {
  found: string | null;
}

/** A message's place in the list: the list measures it (padding, not margins, keeps the gap between messages). */
const Slot = forwardRef<HTMLDivElement, ItemProps<Row> & { context?: SlotContext } & HTMLAttributes<HTMLDivElement>>(function Slot({ item, context, ...props }, ref) {
  return <div {...props} ref={ref} className="chat__slot" data-found={context?.found === item.key ? 'true' : undefined} />;
});

// The list's own props stay the same objects between renders: a streamed frame then re-renders the live row only.
const rowKey = (_: number, row: Row) => row.key;
const rowContent = (_: number, row: Row) => <ChatRow row={row} />;
const COMPONENTS = { Item: Slot };
/** Rows drawn above and below the view (px): the arrow keys and a slow scroll find them drawn. */
const DRAWN_BEYOND_VIEW = { top: 800, bottom: 800 };

/**
 * The virtualized list itself, rendered again only when its rows or their place change: Virtuoso lays itself out
 * again whenever it renders, which a streamed frame must not cost (the live row follows the turn through a context).
 */
const MessageList = memo(function MessageList(props: {
  list: RefObject<VirtuosoHandle | null>;
  scroller: HTMLElement;
  rows: Row[];
  context: SlotContext;
  firstIndex: number;
  rangeChanged: ((range: unknown) => void) | undefined;
}) {
  return (
    <Virtuoso<Row, SlotContext>
      ref={props.list}
      customScrollParent={props.scroller}
      data={props.rows}
      context={props.context}
      // Virtuoso counts rows put above by how much this went down: the window's start does that.
      firstItemIndex={props.firstIndex}
      computeItemKey={rowKey}
      itemContent={rowContent}
      increaseViewportBy={DRAWN_BEYOND_VIEW}
      defaultItemHeight={160}
      rangeChanged={props.rangeChanged}
      components={COMPONENTS}
    />
  );
});

/** Virtuoso counts prepended rows by how much the first one's index went down: the window's start is that index. */
function useListEpoch(sessionId: string, ids: string[]): string {
  const last = useRef<{ session: string; ids: Set<string>; epoch: number }>({ session: '', ids: new Set(), epoch: 0 });
  const seen = last.current;
  // A window that shares no message with the one before (another chat, a search far away) is a new list, not a page.
  const moved = seen.session !== sessionId || (ids.length > 0 && seen.ids.size > 0 && !ids.some((id) => seen.ids.has(id)));
  last.current = { session: sessionId, ids: new Set(ids), epoch: seen.epoch + (moved ? 1 : 0) };
  return `${sessionId}:${last.current.epoch}`;
}

export function ChatView(props: { session: ChatSession; turn: LiveTurn | null; picture: string | null }) {
  const { session, picture } = props;
  const shown = useAppStore((s) => (s.chat.open === session ? s.chat.window : null));
  // A live turn is drawn after the newest message: only while the window holds it (a search can take it back in time).
  const newest = atNewest(session, shown);
  const turn = newest ? props.turn : null;
  const earlier = shown?.start ?? 0;
  const later = shown ? shown.total - shown.start - session.messages.length : 0;
  const assistantName = session.character.name || 'Assistant';
  const replying = turn && turn.status === 'streaming';
  const messages = session.messages;

  const [chat, setChat] = useState<HTMLElement | null>(null);
  const list = useRef<VirtuosoHandle>(null);
  const [found, setFound] = useState<string | null>(null);
  const [drawnAt, setDrawnAt] = useState<unknown>(null);
  // The message a search result (or an address) asked to see, until it is shown.
  const wanted = useAppStore((s) => s.chat.focusMessageId);
  const { rows, live } = useRows(session, turn, newest, picture, later);
  const ids = useMemo(() => rows.map((r) => r.key), [rows]);
  const epoch = useListEpoch(session.id, ids);
  const slotContext = useMemo(() => ({ found }), [found]);
  useButtonsWaitForReply(chat, Boolean(replying));
  useChatViewPlace(chat);
  useStickToBottom(chat, turn?.dryRun ? undefined : turn?.turnId);
  useKeepInView(list, ids, wanted !== null);
  // Home and End scroll to the list's ends (an older page coming in at the top keeps that row in place).
  useRovingMessages(chat, (edge) => {
    const main = document.getElementById('main');
    if (main) main.scrollTop = edge === 'first' ? 0 : main.scrollHeight;
    return (edge === 'first' ? rows[0] : rows.at(-1))?.key;
  });
  useFocusRequested(chat, wanted, list, ids, drawnAt, setFound);

  if (messages.length === 0 && !turn) {
    return (
      <div className="chat chat--empty" data-testid="chat" ref={setChat}>
        <p className="panel-note">
          No messages yet. Write to {assistantName} below; the reply streams in as it is written
          {session.character.name ? '' : ' (give the character a name and description in Character & world)'}.
        </p>
      </div>
    );
  }

  // The main scroll area holds the chat: known once the chat is in the document (the list is drawn from then on).
  const scroller = chat?.closest<HTMLElement>('#main') ?? null;
  return (
    <div
      className="chat"
      data-testid="chat"
      data-first-message={ids[0]}
      ref={setChat}
      role="log"
      aria-live="off"
      aria-label={`Conversation in ${session.title}`}
      aria-description="One stop for Tab: the arrow keys move between messages, Home and End go to the first and last."
    >
      {earlier > 0 && <EarlierMessages count={earlier} />}
      <TurnProvider value={live}>
      {scroller && <MessageList key={epoch} list={list} scroller={scroller} rows={rows} context={slotContext} firstIndex={earlier} rangeChanged={wanted ? setDrawnAt : undefined} />}
      </TurnProvider>
      {turn?.dryRun && <DryRunPreview turn={turn} />}
      {later > 0 && <LaterMessages count={later} />}
    </div>
  );
}
