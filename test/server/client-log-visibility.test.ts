import assert from 'node:assert/strict';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { ClientLogBus } from '../../src/server/logging/client-log';
import { startHarness } from '../support/server-harness';

/** Server warnings reach the sessions the server lets see them (on a team server: admins), replayed or live. */
describe('server warnings for clients', function () {
  this.timeout(30_000);

  for (const visible of [true, false]) {
    it(`${visible ? 'reach' : 'never reach'} a session ${visible ? 'allowed' : 'not allowed'} to see them, from before it opened or after`, async () => {
      const bus = new ClientLogBus();
      bus.emit('warning', 'store notifications interrupted (database "team_store" is down)');
      const h = await startHarness({ deps: { clientLog: bus, clientLogVisible: () => visible } });
      try {
        const logs: string[] = [];
        h.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(String(n.params.data)));
        await h.client.setLoggingLevel('debug');
        await new Promise((r) => setTimeout(r, 1500));
        bus.emit('error', 'definitions file sales.yaml cannot be read');
        await new Promise((r) => setTimeout(r, 300));
        if (visible) {
          assert.ok(logs.some((l) => /team_store/.test(l)), JSON.stringify(logs));
          assert.ok(logs.some((l) => /sales\.yaml/.test(l)), JSON.stringify(logs));
        } else assert.deepEqual(logs, []);
      } finally {
        await h.close();
      }
    });
  }
});

describe('requests whose params do not fit their method', function () {
  this.timeout(30_000);

  it('are answered -32602 Invalid params with one line naming the problem, and the server goes on', async () => {
    const { z } = await import('zod');
    const h = await startHarness();
    try {
      for (const [method, params] of [
        ['resources/read', { uri: 5 }],
        ['resources/subscribe', { uri: 5 }],
        ['prompts/get', { name: 5 }],
        ['completion/complete', {}],
        ['logging/setLevel', { level: 'verbose' }],
      ] as const) {
        await assert.rejects(h.client.request({ method, params } as never, z.any()), (e: unknown) => {
          const err = e as { code?: number; message: string };
          assert.equal(err.code, -32602, `${method}: ${err.message}`);
          assert.ok(!err.message.includes('\n'), err.message);
          assert.match(err.message, new RegExp(`invalid params for ${method.replace('/', '\\/')}`));
          return true;
        });
      }
      assert.ok((await h.client.listTools()).tools.length > 5);
    } finally {
      await h.close();
    }
  });
});
