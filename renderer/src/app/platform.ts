// Platform details the shell adapts to (the shortcut modifier's name).

export function isMac(nav: Pick<Navigator, 'userAgent'> | undefined = globalThis.navigator): boolean {
  return !!nav && /Mac|iPhone|iPad/.test(nav.userAgent);
}

export function modifierLabel(): string {
  return isMac() ? '⌘' : 'Ctrl+';
}
