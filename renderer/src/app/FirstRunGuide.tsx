// The first-run path, offered at the top of every section until it is walked: a connection, the connection and model
// that answer in the chat, a first chat with a reply. Each step says what to do and takes the person there.
import { useState } from 'react';
import { Icon } from '../components/Icon';
import { createSession } from '../stores/chat/chat-commands';
import type { AppState } from '../stores/app/app-store';
import { useAppStore, useAppStoreApi, useHost } from './context';

const HIDDEN_KEY = 'cw.firstRun.hidden';

interface Step {
  id: 'connection' | 'model' | 'chat';
  title: string;
  hint: string;
  done: boolean;
}

/** The steps as the host's state says; null until what they depend on has loaded. */
export function firstRunSteps(s: AppState): Step[] | null {
  if (!s.connections.loaded || !s.chat.loaded || !s.settings) return null;
  const chat = s.settings.chat;
  const profile = s.connections.items.find((p) => p.id === chat?.mainConnectionId);
  return [
    { id: 'connection', title: 'Add a connection', hint: 'A local server (Ollama, LM Studio, llama.cpp…) is found for you; a cloud provider takes its key.', done: s.connections.items.length > 0 },
    { id: 'model', title: 'Choose who answers', hint: 'In a Workbench session, pick the connection and its model above the chat.', done: Boolean(profile && (chat?.model || profile.defaultModel)) },
    { id: 'chat', title: 'Have a first chat', hint: 'Write a message; the reply streams in, and its breakdown shows what the model was sent.', done: s.chat.sessions.some((x) => x.messageCount >= 2) },
  ];
}

function readHidden(): boolean {
  try {
    return localStorage.getItem(HIDDEN_KEY) === '1';
  } catch {
    return false;
  }
}

export function FirstRunGuide() {
  const store = useAppStoreApi();
  const host = useHost();
  // As text: a primitive the store compares, so the guide draws again only when a step changes.
  const steps = JSON.parse(useAppStore((s) => JSON.stringify(firstRunSteps(s)))) as Step[] | null;
  const [hidden, setHidden] = useState(readHidden);
  if (!steps || hidden || steps.every((s) => s.done)) return null;
  const current = steps.find((s) => !s.done)!;

  const go = async () => {
    if (current.id === 'connection') return store.getState().sectionSelected('connections');
    store.getState().sectionSelected('workbench');
    // The chat's settings live in a session: open one (a new one when there is none).
    const { sessions, openId } = store.getState().chat;
    if (!openId && sessions.length === 0) await createSession(store, host, { title: 'First chat' });
  };
  const hide = () => {
    setHidden(true);
    try {
      localStorage.setItem(HIDDEN_KEY, '1');
    } catch {
      // Hidden for this window only.
    }
  };

  return (
    <section className="first-run" aria-labelledby="first-run-title" data-testid="first-run">
      <div className="first-run__head">
        <h2 id="first-run-title" className="first-run__title">
          Getting started
        </h2>
        <button type="button" className="btn btn--ghost btn--small" onClick={hide}>
          Hide
        </button>
      </div>
      <ol className="first-run__steps">
        {steps.map((step) => (
          <li key={step.id} className="first-run__step" data-step={step.id} data-done={step.done} aria-current={step === current ? 'step' : undefined}>
            <span className="first-run__mark" aria-hidden="true">
              {step.done ? <Icon name="check" /> : steps.indexOf(step) + 1}
            </span>
            <span className="first-run__text">
              <strong>{step.title}</strong>
              {step.done ? <span className="visually-hidden"> (done)</span> : <span className="first-run__hint">{step.hint}</span>}
            </span>
          </li>
        ))}
      </ol>
      <button type="button" className="btn btn--primary btn--small" onClick={() => void go()}>
        {current.id === 'connection' ? 'Go to Connections' : current.id === 'model' ? 'Choose in the Workbench' : 'Open the Workbench'}
      </button>
    </section>
  );
}
