// Renderer entry: connect to the host once, wire the store to it outside React, render the shell.
// The shared stylesheet first: every other one (the sections' own, imported by their components) refines it.
import './styles/shared.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { connectToHost } from './api';
import { App } from './app/App';
import { AppProviders } from './app/context';
import { createAppStore } from './stores/app/app-store';
import { wireHost } from './stores/app/wire';
import './styles/app.css';
import './styles/features.css';
import './features/council/council.css';

const host = connectToHost(window);
const store = createAppStore();
const unwire = wireHost(store, host);

window.addEventListener('pagehide', (event) => {
  // A page kept in the back/forward cache may come back; only a real unload closes the connection.
  if (event.persisted) return;
  unwire();
  host.dispose();
});

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
createRoot(container).render(
  <StrictMode>
    <AppProviders host={host} store={store}>
      <App />
    </AppProviders>
  </StrictMode>,
);
