import { ASSISTANT_ERROR_MESSAGE } from '@tc/contract/assistant';
import type { RecordedRequest, ScriptedResponse } from '../../apps/server/src/test/openai-mock';
import { expectAccessible } from '../axe';
import type { E2eEnv } from '../env';
import { expect, test, type FreshTenant, type Page } from '../fixtures';
import { expectSignedIn, openSignedIn, openSignIn, signIn } from '../pages';

/**
 * The assistant in the browser: the server streams the answers of a local
 * OpenAI-compatible mock (started by e2e/global-setup.ts, scripted over HTTP from here). The
 * mock has one queue for the whole run, so these tests run one after another.
 */
test.describe.configure({ mode: 'serial' });

/** The mock's control endpoints (apps/server/src/test/openai-mock.ts). */
function openAiMock(env: E2eEnv) {
  const control = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const response = await fetch(`${env.assistantMockUrl}/__mock/${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.ok, `${method} /__mock/${path}`).toBe(true);
    return response;
  };
  return {
    reset: () => control('POST', 'reset'),
    script: (...responses: ScriptedResponse[]) => control('POST', 'script', responses),
    requests: async () => (await (await control('GET', 'requests')).json()) as RecordedRequest[],
  };
}

/** The chat box's controls, by role and the console's words. */
function chat(page: Page) {
  const box = page.getByRole('dialog', { name: 'Assistant' });
  return {
    bubble: page.getByRole('button', { name: /^(open|close) chat$/i }).last(),
    box,
    log: box.getByRole('log'),
    input: box.getByRole('textbox', { name: 'Message' }),
    send: box.getByRole('button', { name: 'Send' }),
    typing: box.getByRole('status'),
  };
}

async function openChat(page: Page, tenant: FreshTenant) {
  await openSignedIn(page, tenant);
  const c = chat(page);
  await c.bubble.click();
  await expect(c.box).toBeVisible();
  await expect(c.input).toBeFocused();
  return c;
}

async function ask(page: Page, question: string) {
  const c = chat(page);
  await expect(c.input).toBeEnabled();
  await c.input.fill(question);
  // Sending waits for the status check and for any answer in progress.
  await expect(c.send).toBeEnabled();
  await c.input.press('Enter');
  await expect(c.log).toContainText(question);
}

test.beforeEach(async ({ env }) => {
  await openAiMock(env).reset();
});

test('streams the answer into the log as it is generated', async ({ page, env, freshTenant }) => {
  const mock = openAiMock(env);
  const tenant = await freshTenant();
  const c = await openChat(page, tenant);
  await expect(c.box.getByPlaceholder('Ask me something...')).toBeVisible();

  // Blank text is never sent.
  await c.input.fill('   ');
  await expect(c.send).toBeDisabled();
  await c.input.press('Enter');

  // Every text the log shows, so a partial answer is seen however fast the page is.
  await c.log.evaluate((log) => {
    const seen: string[] = [];
    (window as unknown as { chatTexts: string[] }).chatTexts = seen;
    new MutationObserver(() => seen.push(log.textContent ?? '')).observe(log, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  });
  await mock.script({ text: ['Hello ', 'from ', 'the ', 'provider.'], delayMs: 400 });
  await ask(page, 'Say hello');
  await expect(c.typing).toContainText('The assistant is typing...');
  await expect(c.send).toBeDisabled();
  await expect(c.log).toContainText('Hello from the provider.');
  await expect(c.typing).toBeEmpty();

  const texts = await page.evaluate(() => (window as unknown as { chatTexts: string[] }).chatTexts);
  expect(texts.some((t) => t.includes('Hello from') && !t.includes('provider.'))).toBe(true);
  // Shift+Enter starts a new line instead of sending.
  await c.input.fill('first line');
  await c.input.press('Shift+Enter');
  await c.input.pressSequentially('second line');
  await expect(c.input).toHaveValue('first line\nsecond line');
  await expect(c.send).toBeEnabled();

  const requests = await mock.requests();
  expect(requests).toHaveLength(1);
  expect(requests[0]!.authorization).toBe('Bearer e2e-assistant-key');
  expect(requests[0]!.body.messages.at(-1)).toEqual({ role: 'user', content: 'Say hello' });

  // Escape closes the box; the bubble gets the focus back.
  await c.input.press('Escape');
  await expect(c.box).toBeHidden();
  await expect(c.bubble).toBeFocused();
});

test("answers from the caller's tenant only through a tool call", async ({
  page,
  env,
  freshTenant,
}) => {
  const mock = openAiMock(env);
  const [tenant, other] = await Promise.all([freshTenant(), freshTenant()]);
  await Promise.all([
    tenant.createUser({ firstName: 'Ina', lastName: 'Active', status: 'inactive' }),
    tenant.createUser({ firstName: 'Ivo', lastName: 'Idle', status: 'inactive' }),
    tenant.createUser({ firstName: 'Alma', lastName: 'Busy', status: 'active' }),
    other.createUser({ firstName: 'Otto', lastName: 'Elsewhere', status: 'inactive' }),
  ]);

  await mock.script(
    { toolCalls: [{ name: 'list_users', arguments: { status: 'inactive' } }] },
    { text: 'Two users are inactive: Ina Active and Ivo Idle.' },
  );
  const c = await openChat(page, tenant);
  await ask(page, 'How many users are inactive?');
  await expect(c.log).toContainText('Two users are inactive: Ina Active and Ivo Idle.');

  // The second provider call carries the tool's result: this tenant's inactive users only.
  const requests = await mock.requests();
  expect(requests).toHaveLength(2);
  const toolMessage = requests[1]!.body.messages.find((m) => m.role === 'tool');
  expect(toolMessage, 'the tool result is sent back to the provider').toBeDefined();
  const result = JSON.parse(toolMessage!.content!) as {
    totalCount: number;
    users: { name: string; email: string; status: string }[];
  };
  expect(result.totalCount).toBe(2);
  expect(result.users.map((u) => u.name).sort()).toEqual(['Ina Active', 'Ivo Idle']);
  for (const user of result.users) {
    expect(user.email.endsWith(`@${tenant.domain}`)).toBe(true);
    expect(user.status).toBe('inactive');
  }
  const everything = JSON.stringify(requests);
  expect(everything).not.toContain('Otto');
  expect(everything).not.toContain(other.domain);
});

test('a provider failure shows the spec error as the answer', async ({
  page,
  env,
  freshTenant,
}) => {
  const mock = openAiMock(env);
  const tenant = await freshTenant();
  const c = await openChat(page, tenant);

  await mock.script({ status: 500 });
  await ask(page, 'Are you there?');
  await expect(c.log.getByText(ASSISTANT_ERROR_MESSAGE)).toHaveCount(1);

  // A provider that hangs up without answering is a failure too; the next question works.
  await mock.script({ hangUp: true });
  await ask(page, 'Still there?');
  await expect(c.log.getByText(ASSISTANT_ERROR_MESSAGE)).toHaveCount(2);
  await mock.script({ text: 'Back again.' });
  await ask(page, 'And now?');
  await expect(c.log).toContainText('Back again.');
});

test('the per-user rate limit is shown as a message', async ({ page, env, freshTenant }) => {
  const tenant = await freshTenant();
  const c = await openChat(page, tenant);
  // global-setup.ts allows 5 questions a minute; the first 5 go over the API.
  const token = await tenant.token();
  for (let i = 0; i < 5; i++) {
    const response = await fetch(`${env.adminUrl}/api/v1.0/assistant/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: `Question ${i}` }] }),
    });
    expect(response.status).toBe(200);
    await response.text();
  }
  await ask(page, 'One more?');
  await expect(c.log).toContainText(
    /You have sent too many messages\. Try again in \d+ seconds?\./,
  );
  await expect(c.log).not.toContainText(ASSISTANT_ERROR_MESSAGE);
});

// The server's own "not configured" answers (GET /assistant, 503 on chat) are covered over
// HTTP in apps/server/src/modules/assistant/availability.test.ts; this run's server has a
// provider, so the browser is given the status of one without.
test('without a provider the widget says so and offers no field', async ({ page, freshTenant }) => {
  await page.route('**/api/v1.0/assistant', (route) =>
    route.fulfill({ json: { data: { configured: false } } }),
  );
  const tenant = await freshTenant();
  await openSignedIn(page, tenant);
  const c = chat(page);
  await c.bubble.click();
  await expect(c.box).toContainText('The assistant is not configured.');
  await expect(c.input).toBeDisabled();
  await expect(c.send).toBeDisabled();
  await expect(c.box.getByRole('button', { name: 'Close chat' })).toBeFocused();
  await expectAccessible(page, 'chat box without a provider');
  await c.box.getByRole('button', { name: 'Close chat' }).click();
  await expect(c.box).toBeHidden();
});

test('the super administrator is told the assistant answers inside a tenant', async ({
  page,
  env,
}) => {
  await openSignIn(page, env.adminUrl);
  await signIn(page, env.superAdmin);
  await expectSignedIn(page, /\/dashboard\/tenants/);
  const c = chat(page);
  await c.bubble.click();
  await expect(c.box).toContainText("The assistant answers questions about a tenant's own data.");
  await expect(c.input).toBeDisabled();
  await expect(c.send).toBeDisabled();
});
