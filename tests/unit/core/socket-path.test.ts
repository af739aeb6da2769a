// The app's socket for a data folder: beside the data when the path fits, else a short name per folder.
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appSocketPath } from '../../../electron/core/app-socket/socket-path';

describe('appSocketPath', () => {
  it('puts the socket in the data folder when its path fits a Unix socket name', () => {
    expect(appSocketPath('/home/ada/.council', 'linux')).toBe(path.join('/home/ada/.council', 'runtime', 'app.sock'));
  });

  it('gives a long folder a short socket in a private temp folder, the same for the same folder and distinct per folder', () => {
    const long = `/home/ada/${'deep/'.repeat(25)}data`;
    const socket = appSocketPath(long, 'linux');
    expect(path.dirname(socket)).toBe(path.join(os.tmpdir(), `council-workbench-${process.getuid?.() ?? 'user'}`));
    expect(path.basename(socket)).toMatch(/^[0-9a-f]{16}\.sock$/);
    expect(appSocketPath(long, 'linux')).toBe(socket);
    expect(appSocketPath(`${long}2`, 'linux')).not.toBe(socket);
  });

  it('names a Windows pipe by the folder', () => {
    const pipe = appSocketPath('C:\\Users\\ada\\council', 'win32');
    expect(pipe).toMatch(/^\\\\\.\\pipe\\council-workbench-[0-9a-f]{16}$/);
    expect(appSocketPath('C:\\Users\\ada\\other', 'win32')).not.toBe(pipe);
  });
});
