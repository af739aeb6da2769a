// Sandboxed preload: exposes window.councilHost { post, onMessage } (the RPC kernel's messages) and nothing else.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC_CHANNEL, type PreloadBridge } from '../../shared/host-api';

contextBridge.exposeInMainWorld('councilHost', {
  post(message: unknown) {
    ipcRenderer.send(IPC_CHANNEL, message);
  },
  onMessage(listener: (message: unknown) => void) {
    if (typeof listener !== 'function') throw new TypeError('onMessage needs a function');
    // The IpcRendererEvent (with its sender) never reaches the page: only the message does.
    const forward = (_ipcEvent: IpcRendererEvent, message: unknown) => listener(message);
    ipcRenderer.on(IPC_CHANNEL, forward);
    return () => {
      ipcRenderer.removeListener(IPC_CHANNEL, forward);
    };
  },
} satisfies PreloadBridge);
