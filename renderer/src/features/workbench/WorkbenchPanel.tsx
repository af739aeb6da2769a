// Workbench section: chat sessions (list, create, import), the open session's chat with live streaming and tool calls, and its character & world.
import { lazy, Suspense, useEffect, useState, type DragEvent, type MouseEvent } from 'react';
import type { HostError } from '../../../../shared/errors';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { sectionById } from '../../app/sections';
import { EmptyState } from '../../components/EmptyState';
import { InlineError } from '../../components/InlineError';
import { openSession } from '../../stores/chat/chat-commands';
import { turnOf } from '../../stores/chat/chat-slice';
import { ChatSettingsBar } from './ChatSettingsBar';
import { SamplingSettings } from './SamplingSettings';
import { ChatView } from './ChatView';
import { useCharacterPicture } from './CharacterPicture';
import { Composer } from './Composer';
import { ImportForm } from './ImportForm';
import { SessionEditor } from './SessionEditor';
import { CharacterEditorTabs } from '../frontends/CharacterEditorTabs';
import { WorldBooksCard } from './WorldBooksCard';
import { SessionHeader } from './SessionHeader';
import { selectCouncilMode, sessionSwitches, SessionSwitches } from './SessionSwitches';
import { NewSessionButton, SessionList } from './SessionList';
import { ExtensionDrawer } from '../frontends/ExtensionDrawer';
import '../connections/connections.css';
import './workbench.css';
import { AskingHost } from '../../components/AskingHost';
import { TabList } from '../../components/TabList';

const SPEC = sectionById('workbench');
// Loaded when first opened: most chats never show it, and the app's first chunk stays within its budget.
const PresetEditor = lazy(() => import('./PresetEditor').then((m) => ({ default: m.PresetEditor })));

type Tab = 'chat' | 'setting' | 'preset';
const SESSION_VIEWS: ReadonlyArray<{ id: Tab; label: string }> = [
  { id: 'chat', label: 'Chat' },
  { id: 'setting', label: 'Character & world' },
  { id: 'preset', label: 'Preset' },
];

/** The message box, from the top of the chat, without a Tab through every message. */
function skipToComposer(event: MouseEvent<HTMLAnchorElement>) {
  event.preventDefault();
  document.querySelector<HTMLTextAreaElement>('[data-testid="composer"] textarea')?.focus();
}

function OpenSession() {
  const session = useAppStore((s) => s.chat.open);
  const openId = useAppStore((s) => s.chat.openId);
  const openError = useAppStore((s) => s.chat.openError);
  const turn = useAppStore((s) => turnOf(s.chat.turns, s.chat.openId));
  const councilMode = useAppStore(selectCouncilMode);
  const [tab, setTab] = useState<Tab>('chat');
  const picture = useCharacterPicture(session);

  if (openId === null) return <p className="panel-note workbench__hint">Pick a session on the left, or start a new one.</p>;
  if (!session) return openError ? <InlineError error={openError} title="Could not open the session" /> : <p className="panel-note">Opening…</p>;

  const streaming = turn?.status === 'streaming';
  const switches = sessionSwitches(session, councilMode);
  const canRegenerate = session.messages.some((m) => m.role === 'user');
  const canContinue = session.messages.at(-1)?.role === 'assistant';
  return (
    <div className="workbench__session" data-testid="open-session" data-session-id={session.id}>
      <SessionHeader session={session} busyTurn={streaming} picture={picture} />
      <SessionSwitches session={session} />
      <TabList<Tab> tabs={SESSION_VIEWS} selected={tab} onSelect={setTab} label="Session views" className="tabs" tabClassName="tabs__tab" />
      {tab === 'chat' ? (
        <div role="tabpanel" aria-label="Chat" className="workbench__chat">
          <a className="skip-link" href="#composer" onClick={skipToComposer}>
            Skip to the message box
          </a>
          <ChatSettingsBar session={session} />
          <SamplingSettings key={`sampling-${session.id}`} session={session} />
          <ChatView session={session} turn={turn} picture={picture} />
          <Composer key={session.id} sessionId={session.id} streaming={streaming} stopping={Boolean(turn?.stopping)} council={switches.council} dryRun={switches.dryRun} canRegenerate={canRegenerate} canContinue={canContinue} characterName={session.character.name || 'the assistant'} />
        </div>
      ) : tab === 'setting' ? (
        <div role="tabpanel" aria-label="Character & world">
          <SessionEditor key={session.id} session={session} />
          <WorldBooksCard key={`books-${session.id}`} sessionId={session.id} />
          <CharacterEditorTabs sessionId={session.id} />
        </div>
      ) : (
        <div role="tabpanel" aria-label="Preset">
          <Suspense fallback={<p className="panel-note">Opening the preset editor…</p>}>
            <PresetEditor />
          </Suspense>
        </div>
      )}
    </div>
  );
}

export function WorkbenchPanel() {
  const store = useAppStoreApi();
  const host = useHost();
  const sessions = useAppStore((s) => s.chat.sessions);
  const loaded = useAppStore((s) => s.chat.loaded);
  const loadError = useAppStore((s) => s.chat.loadError);
  const openId = useAppStore((s) => s.chat.openId);
  /** The import form is open; with the file dropped on the Workbench, when one was. */
  const [importing, setImporting] = useState<false | { file: File | null }>(false);
  const [dragging, setDragging] = useState(false);
  const [createError, setCreateError] = useState<HostError | null>(null);

  // Open the newest session when none is open yet.
  const first = sessions[0]?.id ?? null;
  useEffect(() => {
    if (openId === null && first !== null) void openSession(store, host, first);
  }, [openId, first, store, host]);

  const importForm = importing && <ImportForm file={importing.file} onDone={() => setImporting(false)} onCancel={() => setImporting(false)} />;
  // Dropping a card, a chat or an exported session anywhere on the Workbench opens the import with it.
  const hasFiles = (e: DragEvent) => e.dataTransfer.types.includes('Files');
  const drop = {
    onDragOver: (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
      setDragging(true);
    },
    onDragLeave: (e: DragEvent) => {
      if (e.currentTarget === e.target) setDragging(false);
    },
    onDrop: (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      setDragging(false);
      const file = e.dataTransfer.files[0];
      if (file) setImporting({ file });
    },
    'data-dragging': dragging || undefined,
  };

  // One tree for both layouts, the extensions panel last in it: when the sessions arrive (or the first is made, or the
  // last deleted) the panel stays the same element, so its frames are not reloaded under the person's pointer.
  const empty = sessions.length === 0;
  return (
    <div className={`${empty ? 'panel-stack' : 'workbench'} workbench-drop`} {...drop} data-testid="workbench-drop">
      {empty ? (
        <>
          <EmptyState icon="workbench" {...SPEC.empty}>
            {!loaded && !loadError && <AskingHost>for its sessions</AskingHost>}
            <div className="empty-state__actions">
              <NewSessionButton primary onError={setCreateError} />
              {!importing && (
                <button type="button" className="btn" onClick={() => setImporting({ file: null })}>
                  Import…
                </button>
              )}
            </div>
          </EmptyState>
          {loadError && <InlineError error={loadError} title="Could not read the sessions" />}
          {createError && <InlineError error={createError} title="Could not create a session" />}
          {importForm}
        </>
      ) : (
        <>
          <aside className="workbench__side">
            <SessionList onImport={() => setImporting((v) => (v ? false : { file: null }))} />
            {loadError && <InlineError error={loadError} title="Could not read the sessions" />}
          </aside>
          <div className="workbench__main">
            {importForm}
            <OpenSession />
          </div>
        </>
      )}
      <ExtensionDrawer />
    </div>
  );
}
