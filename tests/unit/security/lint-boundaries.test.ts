// The folder import rules are real: a wrong import in each folder fails lint (and so `npm test`).
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function ruleIds(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? 'fatal');
}

describe('folder import rules', () => {
  const cases: Array<[string, string]> = [
    ['renderer/src/bad.ts', "import fs from 'node:fs';\nexport const x = fs;\n"],
    ['renderer/src/bad.ts', "import { app } from 'electron';\nexport const x = app;\n"],
    ['renderer/src/bad.ts', "import { createHost } from '../../electron/core/host';\nexport const x = createHost;\n"],
    ['shared/bad.ts', "import path from 'node:path';\nexport const x = path;\n"],
    ['shared/bad.ts', "import path from 'path';\nexport const x = path;\n"],
    ['shared/bad.ts', "import { app } from 'electron';\nexport const x = app;\n"],
    ['electron/core/bad.ts', "import { app } from 'electron';\nexport const x = app;\n"],
    ['electron/headless/bad.ts', "import { app } from 'electron';\nexport const x = app;\n"],
    ['electron/worker/bad.ts', "import { ToolRegistry } from '../core/registry/tool-registry';\nexport const x = ToolRegistry;\n"],
    ['electron/preload/bad.ts', "import fs from 'node:fs';\nexport const x = fs;\n"],
  ];

  it.each(cases)('%s: %s fails lint', async (filePath, code) => {
    expect(await ruleIds(filePath, code)).toContain('no-restricted-imports');
  });

  it('allowed imports pass', async () => {
    expect(await ruleIds('electron/main/ok.ts', "import { app } from 'electron';\nexport const x = app;\n")).not.toContain('no-restricted-imports');
    expect(await ruleIds('electron/core/ok.ts', "import fs from 'node:fs';\nexport const x = fs;\n")).not.toContain('no-restricted-imports');
    expect(await ruleIds('renderer/src/ok.ts', "import { create } from 'zustand';\nexport const x = create;\n")).not.toContain('no-restricted-imports');
  });
});
