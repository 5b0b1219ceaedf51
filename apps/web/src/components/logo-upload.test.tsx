import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../lib/i18n';
import type { LogoChange } from '../lib/logo-upload';
import { LogoUpload } from './logo-upload';

const file = (name: string, type: string, size = 4) =>
  new File([new Uint8Array(size)], name, { type });

/** The control as a dialog holds it: the change in state, reported to the test. */
function Harness(props: { currentUrl: string | null; onChange: (change: LogoChange) => void }) {
  const [value, setValue] = useState<LogoChange>({ kind: 'keep' });
  return (
    <LogoUpload
      currentUrl={props.currentUrl}
      value={value}
      onChange={(change) => {
        setValue(change);
        props.onChange(change);
      }}
    />
  );
}

const choose = (chosen: File) =>
  fireEvent.change(screen.getByLabelText('Choose logo'), { target: { files: [chosen] } });

describe('LogoUpload', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
    await i18n.loadNamespaces('lists');
  });
  // jsdom has no object URLs; the control makes one per chosen file.
  beforeEach(() => {
    URL.createObjectURL = vi.fn(() => 'blob:preview');
    URL.revokeObjectURL = vi.fn();
  });
  afterEach(() => {
    Reflect.deleteProperty(URL, 'createObjectURL');
    Reflect.deleteProperty(URL, 'revokeObjectURL');
  });

  it("states the server's limits and refuses a wrong type or size before anything changes", () => {
    const onChange = vi.fn();
    render(<Harness currentUrl={null} onChange={onChange} />);
    expect(
      screen.getByText('PNG, JPEG, WebP or GIF, up to 2 MB. Uploaded when you save.'),
    ).toBeInTheDocument();
    choose(file('notes.txt', 'text/plain'));
    expect(screen.getByText('Choose a PNG, JPEG, WebP or GIF image.')).toBeInTheDocument();
    choose(file('big.png', 'image/png', 2 * 1024 * 1024 + 1));
    expect(screen.getByText('The image is larger than 2 MB.')).toBeInTheDocument();
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.queryByRole('img', { name: 'Logo preview' })).toBeNull();
  });

  it('previews the stored, then the chosen image; Remove asks to remove the stored one', () => {
    const onChange = vi.fn();
    const { unmount } = render(<Harness currentUrl="/api/v1.0/files/f" onChange={onChange} />);
    expect(screen.getByRole('img', { name: 'Logo preview' })).toHaveAttribute(
      'src',
      '/api/v1.0/files/f',
    );
    const chosen = file('logo.png', 'image/png');
    choose(chosen);
    expect(onChange).toHaveBeenLastCalledWith({ kind: 'upload', file: chosen });
    expect(screen.getByRole('img', { name: 'Logo preview' })).toHaveAttribute(
      'src',
      'blob:preview',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Remove logo' }));
    expect(onChange).toHaveBeenLastCalledWith({ kind: 'remove' });
    expect(screen.queryByRole('img', { name: 'Logo preview' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Choose logo' })).toBeEnabled();
    unmount();
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:preview');
  });

  it("shows the caller's error, and is disabled when asked", () => {
    render(
      <LogoUpload
        currentUrl={null}
        value={{ kind: 'keep' }}
        onChange={() => {}}
        error="Upload a PNG, JPEG, WebP or GIF image."
        disabled
      />,
    );
    expect(screen.getByText('Upload a PNG, JPEG, WebP or GIF image.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Choose logo' })).toBeDisabled();
  });
});
