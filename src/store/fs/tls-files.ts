import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { MockdevError } from '../../core/errors.js';
import type { PemPair, TlsFiles } from '../../core/ports.js';
import { dataPaths } from './data-dir.js';
import { ioError, writeFileAtomic } from './json-file.js';
import { PRIVATE_DIR, PRIVATE_FILE } from './private.js';

/**
 * The local CA and the leaf in `<data dir>/tls/` (docs/tls.md): PEM files, the folder 0700 and
 * every file 0600 (the keys are secrets; the certificates are kept private with them). Errors
 * name the file, never quote it.
 */
export class FileTlsFiles implements TlsFiles {
  readonly paths: TlsFiles['paths'];

  constructor(dataDir: string) {
    const dir = dataPaths(dataDir).tls;
    this.paths = {
      dir,
      ca: join(dir, 'ca.pem'),
      caKey: join(dir, 'ca-key.pem'),
      cert: join(dir, 'cert.pem'),
      key: join(dir, 'key.pem'),
    };
  }

  readCa(): Promise<PemPair | undefined> {
    return this.readPair(this.paths.ca, this.paths.caKey);
  }

  readLeaf(): Promise<PemPair | undefined> {
    return this.readPair(this.paths.cert, this.paths.key);
  }

  writeCa(pair: PemPair): Promise<void> {
    return this.writePair(pair, this.paths.ca, this.paths.caKey);
  }

  writeLeaf(pair: PemPair): Promise<void> {
    return this.writePair(pair, this.paths.cert, this.paths.key);
  }

  /** Both files, or undefined when the certificate is missing; a key missing beside it is CORRUPT_FILE. */
  private async readPair(certFile: string, keyFile: string): Promise<PemPair | undefined> {
    const cert = await readPem(certFile, 'CERTIFICATE');
    if (cert === undefined) return undefined;
    const key = await readPem(keyFile, 'PRIVATE KEY');
    if (key === undefined)
      throw new MockdevError('CORRUPT_FILE', `${keyFile} is missing beside ${certFile}`, {
        hint: 'Run "mockdev tls generate" to make them again',
        details: { file: keyFile },
      });
    return { cert, key };
  }

  private async writePair(pair: PemPair, certFile: string, keyFile: string): Promise<void> {
    try {
      await fs.mkdir(this.paths.dir, { recursive: true, mode: PRIVATE_DIR });
    } catch (e) {
      throw ioError(`Could not create ${this.paths.dir}`, e);
    }
    // The key first: a certificate is never found without its key.
    await writeFileAtomic(keyFile, pair.key, PRIVATE_FILE);
    await writeFileAtomic(certFile, pair.cert, PRIVATE_FILE);
  }
}

/** A PEM file's text; undefined when it does not exist; CORRUPT_FILE when it holds no `label` block. */
async function readPem(file: string, label: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw ioError(`Could not read ${file}`, e);
  }
  if (!new RegExp(`-----BEGIN [A-Z ]*${label}-----`).test(text))
    throw new MockdevError('CORRUPT_FILE', `${file} holds no PEM ${label.toLowerCase()}`, {
      hint: 'Run "mockdev tls generate" to make it again',
      details: { file },
    });
  return text;
}
