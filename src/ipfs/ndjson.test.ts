import { IpfsApiError, InvalidContentError } from './errors';
import { parseNdjson } from './ndjson';

/**
 * Split `text` into byte chunks of `size` (cutting lines and UTF-8 sequences).
 *
 * @param text - The body.
 * @param size - Chunk length in bytes.
 * @yields The chunks.
 */
async function* chunked(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let i = 0; i < bytes.length; i += size) {
    yield bytes.subarray(i, i + size);
  }
}

/**
 * Collect every item.
 *
 * @param source - Items.
 * @returns The array.
 */
async function all(source: AsyncIterable<unknown>): Promise<unknown[]> {
  const items: unknown[] = [];
  for await (const item of source) {
    items.push(item);
  }
  return items;
}

describe('parseNdjson', () => {
  const items = [{ Name: 'ä€😀', Hash: 'Qm1' }, { Bytes: 3 }, [1, 2], 'x', { Hash: 'Qm2' }];
  const body = `${items.map((item) => JSON.stringify(item)).join('\n')}\n`;

  it.each([1, 2, 3, 7, 64, 4096])('parses across chunk boundaries of %i bytes', async (size) => {
    expect(await all(parseNdjson(chunked(body, size), 'add'))).toStrictEqual(items);
  });

  it('parses a last line without newline and skips blank lines', async () => {
    expect(await all(parseNdjson(chunked('{"a":1}\n\n  \n{"b":2}', 3), 'x'))).toStrictEqual([{ a: 1 }, { b: 2 }]);
  });

  it('turns a trailing error object into IpfsApiError after yielding what came before', async () => {
    const seen: unknown[] = [];
    const failing = `${body}{"Message":"disk on fire","Code":0,"Type":"error"}\n`;
    const error = await (async () => {
      try {
        for await (const item of parseNdjson(chunked(failing, 5), 'add')) {
          seen.push(item);
        }
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(seen).toStrictEqual(items);
    expect(error).toBeInstanceOf(IpfsApiError);
    expect(error).toMatchObject({ status: 200, streamed: true, serverMessage: 'disk on fire', command: 'add' });
    expect((error as Error).message).toBe('IPFS add failed after streaming began: disk on fire');
  });

  it('refuses a line that is not JSON (a truncated item)', async () => {
    await expect(all(parseNdjson(chunked('{"a":1}\n{"b":', 4), 'refs'))).rejects.toThrow(InvalidContentError);
  });
});
