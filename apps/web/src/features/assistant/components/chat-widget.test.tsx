import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../lib/i18n';
import { saveTokens } from '../../../lib/session';
import { ChatWidget } from './chat-widget';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

/** A streamed answer the test writes piece by piece. */
function controlledStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const encoder = new TextEncoder();
  return {
    response: new Response(body, { headers: { 'Content-Type': 'text/event-stream' } }),
    write: (chunk: object) =>
      controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`)),
    close: () => controller.close(),
  };
}

function renderWidget() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ChatWidget />
    </QueryClientProvider>,
  );
  return userEvent.setup({ delay: null });
}

const field = () => screen.getByRole('textbox', { name: 'Message' });
const sendButton = () => screen.getByRole('button', { name: 'Send' });
const chatCalls = (fetchMock: ReturnType<typeof vi.fn>) =>
  fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/assistant/chat'));

describe('ChatWidget', { timeout: 20_000 }, () => {
  const fetchMock = vi.fn<typeof fetch>();

  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });
  beforeEach(() => {
    saveTokens({ access_token: 'access', refresh_token: 'refresh' }, false);
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('says plainly when the assistant is not configured, with no usable field', async () => {
    fetchMock.mockResolvedValue(json(200, { data: { configured: false } }));
    const user = renderWidget();
    await user.click(screen.getByRole('button', { name: 'Open chat' }));
    const box = screen.getByRole('dialog', { name: 'Assistant' });
    expect(await within(box).findByText('The assistant is not configured.')).toBeVisible();
    expect(field()).toBeDisabled();
    expect(sendButton()).toBeDisabled();
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/v1.0/assistant');
  });

  it('asks for the status only once the box opens, focuses the field, closes on Escape', async () => {
    fetchMock.mockResolvedValue(json(200, { data: { configured: true } }));
    const user = renderWidget();
    expect(fetchMock).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Open chat' }));
    expect(field()).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open chat' })).toHaveFocus();
  });

  it('never sends blank text; Shift+Enter adds a line, Enter sends and the answer streams in', async () => {
    const answer = controlledStream();
    fetchMock.mockImplementation(async (url) =>
      String(url).endsWith('/assistant/chat')
        ? answer.response
        : json(200, { data: { configured: true } }),
    );
    const user = renderWidget();
    await user.click(screen.getByRole('button', { name: 'Open chat' }));
    await vi.waitFor(() => expect(screen.queryByText(/Checking/)).not.toBeInTheDocument());

    await user.type(field(), '   ');
    expect(sendButton()).toBeDisabled();
    await user.keyboard('{Enter}');
    expect(chatCalls(fetchMock)).toHaveLength(0);

    await user.clear(field());
    await user.type(field(), 'How many{Shift>}{Enter}{/Shift}users?');
    expect(field()).toHaveValue('How many\nusers?');
    await user.keyboard('{Enter}');
    expect(chatCalls(fetchMock)).toHaveLength(1);
    const body = JSON.parse(String(chatCalls(fetchMock)[0]?.[1]?.body));
    expect(body).toEqual({ messages: [{ role: 'user', content: 'How many\nusers?' }] });

    const log = screen.getByRole('log');
    expect(log).toHaveAttribute('aria-live', 'polite');
    expect(await screen.findByText('The assistant is typing...')).toBeInTheDocument();
    answer.write({ delta: 'There are ' });
    expect(await within(log).findByText(/There are/)).toBeVisible();
    await user.type(field(), 'next');
    expect(sendButton()).toBeDisabled();

    answer.write({ delta: 'three.' });
    answer.write({ done: true });
    answer.close();
    expect(await within(log).findByText(/There are three\./)).toBeVisible();
    await vi.waitFor(() => expect(sendButton()).toBeEnabled());
    expect(screen.queryByText('The assistant is typing...')).not.toBeInTheDocument();
  });

  it('shows the spec error on a provider failure and the wait on a rate limit', async () => {
    let calls = 0;
    fetchMock.mockImplementation(async (url) => {
      if (!String(url).endsWith('/assistant/chat'))
        return json(200, { data: { configured: true } });
      calls += 1;
      if (calls === 1) {
        const failed = controlledStream();
        failed.write({ error: 'Error: Unable to process your request at the moment.' });
        failed.close();
        return failed.response;
      }
      return json(
        429,
        { status: 429, title: 'Too Many Requests', detail: 'You have sent too many messages.' },
        { 'Retry-After': '37' },
      );
    });
    const user = renderWidget();
    await user.click(screen.getByRole('button', { name: 'Open chat' }));
    await vi.waitFor(() => expect(screen.queryByText(/Checking/)).not.toBeInTheDocument());
    const log = screen.getByRole('log');

    await user.type(field(), 'Hello{Enter}');
    expect(
      await within(log).findByText('Error: Unable to process your request at the moment.'),
    ).toBeVisible();

    await user.type(field(), 'Again{Enter}');
    expect(
      await within(log).findByText('You have sent too many messages. Try again in 37 seconds.'),
    ).toBeVisible();
    // The notice is not sent back as part of the conversation.
    const second = JSON.parse(String(chatCalls(fetchMock)[1]?.[1]?.body));
    expect(second.messages).toEqual([
      { role: 'user', content: 'Hello' },
      { role: 'user', content: 'Again' },
    ]);
  });
});
