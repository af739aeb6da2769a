// lazyValidator answers its first calls by interpreting the schema (TypeBox) and compiles it with Ajv once it is
// in use; Ajv has the last word on a value the interpreter refuses and words every error.
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { describeAjvError, lazyValidator } from '../../../electron/core/contract/validators';

const Member = Type.Object({ name: Type.String({ minLength: 1 }), chance: Type.Integer({ minimum: 0, maximum: 100 }) }, { additionalProperties: false });

describe('lazyValidator', () => {
  it('gives the same verdicts and Ajv’s words before and after it compiles', () => {
    const validate = lazyValidator(Member);
    const verdicts = () => [validate({ name: 'Ada', chance: 50 }), validate({ name: 'Ada', chance: 101 }), validate({ name: 'Ada', chance: 5, extra: 1 })];
    const first = verdicts();
    expect(first).toEqual([true, false, false]);
    expect(validate({ name: '', chance: 1 })).toBe(false);
    expect(describeAjvError(validate.errors?.[0], 'x')).toEqual({ message: '/name must NOT have fewer than 1 characters (minLength)', path: '/name' });
    for (let i = 0; i < 20; i++) expect(verdicts()).toEqual(first);
    expect(validate({ name: 'Ada', chance: 101 })).toBe(false);
    expect(describeAjvError(validate.errors?.[0], 'x').path).toBe('/chance');
  });

  it('a schema the interpreter cannot read alone is decided by Ajv', () => {
    const schema = { $id: 'wrapper', type: 'object', properties: { inner: { $ref: '#/definitions/n' } }, definitions: { n: { type: 'number' } } };
    const validate = lazyValidator(schema);
    expect(validate({ inner: 3 })).toBe(true);
    expect(validate({ inner: 'three' })).toBe(false);
    expect(describeAjvError(validate.errors?.[0], 'x').path).toBe('/inner');
  });
});
