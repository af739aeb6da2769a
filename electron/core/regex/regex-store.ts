// The regex scripts (spindle.regex_scripts, and the person's own): a row each in the chats' database. Each keeps the
// extension that wrote it; another extension may change it only with regex_scripts_unrestricted, as Lumiverse's
// can_mutate says. Every change bumps a revision (the window's display cache follows it) and is announced.
import { randomUUID } from 'node:crypto';
import { fail } from '../../../shared/errors';
import type { Db } from '../db/chat-db';
import { DbStore } from '../db/db-store';
import type { Clock } from '../ports';
import { checkedInput, checkPattern, newScript, REGEX_LIMITS, updatedScript } from './regex-script';
import { mayChange, USER_OWNER, type RegexScope, type RegexScript, type RegexScriptInput, type RegexTarget } from '../../../shared/types/regex-script';

/** Who asks: an extension (its id, and whether it holds regex_scripts_unrestricted), or the person. */
export interface RegexWriter {
  owner: string;
  unrestricted: boolean;
}
export const PERSON: RegexWriter = { owner: USER_OWNER, unrestricted: true };

/** A script written or deleted; or scripts passed over from now on (their time ran out), which only the window needs to know. */
export type RegexChange = { kind: 'changed'; script: RegexScript } | { kind: 'deleted'; id: string } | { kind: 'skipped'; scripts: RegexScript[] };

export interface RegexListOptions {
  scope?: RegexScope;
  scopeId?: string;
  target?: RegexTarget;
  limit?: number;
  offset?: number;
}

/** The chat a generation or a view is for: global scripts, and those scoped to its character or to it. */
export interface RegexContext {
  characterId?: string;
  chatId?: string;
  /** The chat's preset: its own scripts are at work too. */
  presetId?: string;
}

export class RegexStore extends DbStore {
  private readonly sql;
  private readonly listeners = new Set<(change: RegexChange) => void>();
  /** Bumped by every change: what was applied under an older revision is stale. */
  revision = 0;

  constructor(db: Db, clock: Clock, committed?: () => void) {
    super(db, clock, committed);
    const p = (text: string) => db.prepare(text).raw(true);
    this.sql = {
      one: p('SELECT doc FROM regex_scripts WHERE id = ?'),
      all: p('SELECT doc FROM regex_scripts ORDER BY sort_order, created_at, rowid'),
      // An absent character, chat or preset is NULL, which no scope_id equals. A preset's run after the global ones.
      active: p(
        `SELECT doc FROM regex_scripts WHERE disabled = 0 AND instr(target, '"' || ? || '"') > 0
           AND (scope = 'global' OR (scope = 'character' AND scope_id = ?) OR (scope = 'chat' AND scope_id = ?) OR (scope = 'preset' AND scope_id = ?))
         ORDER BY CASE scope WHEN 'global' THEN 0 WHEN 'preset' THEN 1 WHEN 'character' THEN 2 ELSE 3 END, sort_order, created_at, rowid`,
      ),
      count: p('SELECT COUNT(*) FROM regex_scripts'),
      owned: p('SELECT COUNT(*) FROM regex_scripts WHERE owner = ?'),
      byScriptId: p("SELECT id FROM regex_scripts WHERE script_id = ? AND script_id <> ''"),
      scoped: p("SELECT id FROM regex_scripts WHERE scope IN ('character', 'chat', 'preset') AND scope_id = ?"),
      insert: db.prepare('INSERT INTO regex_scripts (id, owner, script_id, scope, scope_id, target, disabled, sort_order, created_at, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'),
      write: db.prepare('UPDATE regex_scripts SET script_id = ?, scope = ?, scope_id = ?, target = ?, disabled = ?, sort_order = ?, doc = ? WHERE id = ?'),
      remove: db.prepare('DELETE FROM regex_scripts WHERE id = ?'),
    };
  }

  /** Told of every change once it is committed. */
  onChange(listener: (change: RegexChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Lumiverse's list: strict scope filtering, sort order then age, 50 a page by default and 200 at most. */
  list(options: RegexListOptions = {}): { data: RegexScript[]; total: number } {
    const filters: Array<[string, unknown]> = [];
    if (options.scope) filters.push(['scope = ?', options.scope]);
    if (options.scopeId) filters.push(['scope_id = ?', options.scopeId]);
    if (options.target) filters.push([`instr(target, '"' || ? || '"') > 0`, options.target]);
    const where = filters.map(([sql]) => sql);
    const params = filters.map(([, value]) => value);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    // Lumiverse's `limit || 50`: 0 is the default too.
    const limit = Math.min(200, Math.max(1, Math.floor(options.limit || 50)));
    const offset = Math.max(0, Math.floor(options.offset ?? 0));
    const rows = this.db.prepare(`SELECT doc FROM regex_scripts ${clause} ORDER BY sort_order, created_at, rowid LIMIT ? OFFSET ?`).raw(true).all(...params, limit, offset) as Array<[string]>;
    const total = (this.db.prepare(`SELECT COUNT(*) FROM regex_scripts ${clause}`).raw(true).get(...params) as [number])[0];
    return { data: rows.map(([doc]) => JSON.parse(doc) as RegexScript), total };
  }

  get(id: string): RegexScript | null {
    const row = this.sql.one.get(id) as [string] | undefined;
    return row ? (JSON.parse(row[0]) as RegexScript) : null;
  }

  /** Every script, in the order they run. */
  all(): RegexScript[] {
    return (this.sql.all.all() as Array<[string]>).map(([doc]) => JSON.parse(doc) as RegexScript);
  }

  /** The enabled scripts for `target` in `context`, as Lumiverse resolves them: global, then character, then chat; each by sort order. */
  active(target: RegexTarget, context: RegexContext = {}): RegexScript[] {
    const rows = this.sql.active.all(target, context.characterId || null, context.chatId || null, context.presetId || null) as Array<[string]>;
    return rows.map(([doc]) => JSON.parse(doc) as RegexScript);
  }

  create(raw: RegexScriptInput, writer: RegexWriter): RegexScript {
    const input = checkedInput(raw, true);
    const script = newScript(input, randomUUID(), writer.owner, this.seconds());
    checkPattern(script.find_regex, script.flags, script.substitute_macros);
    this.write(() => {
      if ((this.sql.count.get() as [number])[0] >= REGEX_LIMITS.maxScripts) fail('QUOTA_EXCEEDED', `At most ${REGEX_LIMITS.maxScripts} regex scripts are kept.`);
      if (writer.owner !== USER_OWNER && (this.sql.owned.get(writer.owner) as [number])[0] >= REGEX_LIMITS.maxScriptsPerOwner) {
        fail('QUOTA_EXCEEDED', `An extension keeps at most ${REGEX_LIMITS.maxScriptsPerOwner} regex scripts.`);
      }
      this.uniqueScriptId(script);
      this.sql.insert.run(script.id, script.owner, script.script_id, script.scope, script.scope_id, JSON.stringify(script.target), script.disabled ? 1 : 0, script.sort_order, script.created_at, this.json(script));
    });
    this.announce({ kind: 'changed', script });
    return script;
  }

  update(id: string, raw: RegexScriptInput, writer: RegexWriter): RegexScript {
    const input = checkedInput(raw, false);
    const script = this.write(() => {
      const current = this.owned(id, writer);
      const next = updatedScript(current, input, this.seconds());
      if (input.find_regex !== undefined || input.flags !== undefined || input.substitute_macros !== undefined) checkPattern(next.find_regex, next.flags, next.substitute_macros);
      this.uniqueScriptId(next);
      this.sql.write.run(next.script_id, next.scope, next.scope_id, JSON.stringify(next.target), next.disabled ? 1 : 0, next.sort_order, this.json(next), id);
      return next;
    });
    this.announce({ kind: 'changed', script });
    return script;
  }

  /**
   * One of the person's scripts as a backup has it, under its own id: checked as a new one is (name, pattern, fields),
   * written over one of that id, or added. The same script again is no change.
   */
  restore(saved: RegexScript): RegexScript {
    const { id, owner: _owner, created_at, updated_at, ...fields } = saved;
    const script = { ...newScript(checkedInput(fields as RegexScriptInput, true), id, USER_OWNER, created_at), updated_at };
    checkPattern(script.find_regex, script.flags, script.substitute_macros);
    const changed = this.write(() => {
      const current = this.get(id);
      if (current && JSON.stringify(current) === JSON.stringify(script)) return false;
      if (current && current.owner !== USER_OWNER) fail('CONFLICT', `Regex script ${id} is an extension's here.`, { path: '/id' });
      this.uniqueScriptId(script);
      if (current) this.sql.write.run(script.script_id, script.scope, script.scope_id, JSON.stringify(script.target), script.disabled ? 1 : 0, script.sort_order, this.json(script), id);
      else {
        if ((this.sql.count.get() as [number])[0] >= REGEX_LIMITS.maxScripts) fail('QUOTA_EXCEEDED', `At most ${REGEX_LIMITS.maxScripts} regex scripts are kept.`);
        this.sql.insert.run(script.id, script.owner, script.script_id, script.scope, script.scope_id, JSON.stringify(script.target), script.disabled ? 1 : 0, script.sort_order, script.created_at, this.json(script));
      }
      return true;
    });
    if (changed) this.announce({ kind: 'changed', script });
    return script;
  }

  /** False when there is no such script (Lumiverse's answer). */
  delete(id: string, writer: RegexWriter): boolean {
    const gone = this.write(() => {
      if (!this.get(id)) return null;
      const script = this.owned(id, writer);
      this.sql.remove.run(id);
      return script;
    });
    if (gone) this.announce({ kind: 'deleted', id });
    return gone !== null;
  }

  /** Deletes the scripts of a character, chat or preset that is gone (a session or preset deleted): none of them can apply again. */
  forgetScope(scopeId: string): number {
    const ids = this.write(() => {
      const rows = (this.sql.scoped.all(scopeId) as Array<[string]>).map(([id]) => id);
      for (const id of rows) this.sql.remove.run(id);
      return rows;
    });
    for (const id of ids) this.announce({ kind: 'deleted', id });
    return ids.length;
  }

  /** Scripts the runner passes over from now on: what was applied with them is stale. */
  skipped(scripts: RegexScript[]): void {
    this.announce({ kind: 'skipped', scripts });
  }

  private owned(id: string, writer: RegexWriter): RegexScript {
    const script = this.get(id) ?? fail('NOT_FOUND', 'Regex script not found', { path: '/scriptId' });
    if (!mayChange(script, writer.owner, writer.unrestricted)) {
      fail('PERMISSION_DENIED', `Regex script ${id} belongs to another extension; changing it needs the regex_scripts_unrestricted permission.`, { path: '/scriptId' });
    }
    return script;
  }

  private uniqueScriptId(script: RegexScript): void {
    const row = script.script_id ? (this.sql.byScriptId.get(script.script_id) as [string] | undefined) : undefined;
    if (row && row[0] !== script.id) fail('CONFLICT', 'script_id already exists', { path: '/input/script_id' });
  }

  private json(script: RegexScript): string {
    const text = JSON.stringify(script);
    if (Buffer.byteLength(text) > REGEX_LIMITS.maxScriptBytes) fail('INPUT_TOO_LARGE', `A regex script holds at most ${REGEX_LIMITS.maxScriptBytes} bytes.`, { path: '/input' });
    return text;
  }

  private announce(change: RegexChange): void {
    this.revision++;
    for (const listener of this.listeners) listener(change);
  }
}
