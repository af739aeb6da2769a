// Sandboxed preload: exposes window.councilHost { invoke, onEvent } and nothing else from Electron.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL, type PreloadBridge } from '../../shared/host-api';

contextBridge.exposeInMainWorld('councilHost', {
  invoke(method: string, input: unknown) {
    return ipcRenderer.invoke(IPC_INVOKE_CHANNEL, method, input);
  },
  onEvent(listener: (event: unknown) => void) {
    if (typeof listener !== 'function') throw new TypeError('onEvent needs a function');
    // The IpcRendererEvent (with its sender) never reaches the page: only the payload does.
    const forward = (_ipcEvent: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(IPC_EVENT_CHANNEL, forward);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, forward);
    };
  },
} satisfies PreloadBridge);
