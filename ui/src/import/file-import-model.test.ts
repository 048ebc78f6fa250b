import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { importQuery, noteRow, type FileImportOptions } from './file-import-model';

const base: FileImportOptions = { format: '', existing: 'skip', includeHost: '', all: false };

describe('file import helpers', () => {
  it('asks the import route only what differs from its defaults', () => {
    assert.equal(importQuery(base, true), '?dryRun=true');
    assert.equal(importQuery(base, false), '');
    assert.equal(
      importQuery({ ...base, format: 'postman', project: 'p1', existing: 'overwrite' }, false),
      '?format=postman&project=p1&overwrite=true',
    );
    assert.equal(
      importQuery({ ...base, project: 'p1', existing: 'replace' }, true),
      '?project=p1&replace=true&dryRun=true',
    );
    assert.equal(
      importQuery({ ...base, format: 'postman', env: true }, true),
      '?format=postman&env=true&dryRun=true',
    );
    // Into a new project there is nothing to overwrite.
    assert.equal(importQuery({ ...base, existing: 'overwrite' }, false), '');
  });

  it('sends the HAR options only when the file may be a HAR', () => {
    const har = { ...base, includeHost: ' api.example.com ', all: true };
    assert.equal(importQuery(har, false), '?includeHost=api.example.com&all=true');
    assert.equal(
      importQuery({ ...har, format: 'har' }, false),
      '?format=har&includeHost=api.example.com&all=true',
    );
    assert.equal(importQuery({ ...har, format: 'wiremock' }, false), '?format=wiremock');
  });

  it('reads a note of the report as a row: where (the path, else the source’s name) and what', () => {
    assert.deepEqual(noteRow({ method: 'GET', path: '/a', name: 'Users / Get', message: 'rule lost' }), {
      method: 'GET',
      where: '/a (Users / Get)',
      what: 'rule lost',
    });
    assert.deepEqual(noteRow({ name: 'logo.png', reason: 'a static asset' }), {
      method: '',
      where: 'logo.png',
      what: 'a static asset',
    });
  });
});
