import { MockdevError } from '../core/errors.js';
import { currentIo } from './io.js';

/** Reads all of stdin for an argument given as "-"; refuses when stdin is a terminal (nothing piped). */
export async function readStdin(argument: string, example: string): Promise<string> {
  const { stdin } = currentIo();
  if (stdin.isTTY) {
    throw new MockdevError('INVALID_ARGUMENT', `${argument} is "-" but nothing is piped to stdin`, {
      hint: `Pipe it in (${example}) or pass it as an argument`,
    });
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
