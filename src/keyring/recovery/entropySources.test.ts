import { EntropySources, PRIMARY_SOURCE_ID } from './entropySources';

describe('EntropySources', () => {
  it('lists what MetaMask lists, checked, primary first', async () => {
    const sources = new EntropySources(async () => [
      { id: 'b', name: 'Second', type: 'mnemonic', primary: false },
      { id: 'a', name: 'First', type: 'mnemonic', primary: true },
      { id: '', name: 'no id', primary: false },
      { id: 'b', name: 'again', primary: false },
      'junk',
    ]);
    expect(await sources.list()).toStrictEqual([
      { id: 'a', name: 'First', primary: true },
      { id: 'b', name: 'Second', primary: false },
    ]);
  });

  it('stands for the primary phrase alone when MetaMask cannot list', async () => {
    for (const list of [
      undefined,
      async (): Promise<unknown> => {
        throw new Error('The method does not exist');
      },
      async (): Promise<unknown> => [],
    ]) {
      expect(await new EntropySources(list).list()).toStrictEqual([
        {
          id: PRIMARY_SOURCE_ID,
          name: 'Secret Recovery Phrase',
          primary: true,
        },
      ]);
    }
  });

  it('resolves the primary to no source, another to its id, and refuses an unknown id without echoing it', async () => {
    const sources = new EntropySources(async () => [
      { id: 'a', name: 'First', primary: true },
      { id: 'b', name: 'Second', primary: false },
    ]);
    expect(await sources.resolve(undefined, 'x')).toBeUndefined();
    expect(await sources.resolve('a', 'x')).toBeUndefined();
    expect(await sources.resolve('b', 'x')).toBe('b');
    await expect(sources.resolve('secret-c', 'x')).rejects.toMatchObject({
      code: -32602,
      data: { reason: 'unknownEntropySource' },
      message: expect.not.stringContaining('secret-c'),
    });
  });
});
