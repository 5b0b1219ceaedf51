import { render, screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import i18n from '../lib/i18n';
import { PasswordChecklist } from './password-checklist';

function states() {
  const list = screen.getByRole('list', { name: 'Password requirements' });
  return within(list)
    .getAllByRole('listitem')
    .map((item) => [item.textContent?.replace(/\s*\((not )?met\)$/, ''), item.dataset.met]);
}

describe('PasswordChecklist', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });

  it('shows the three rules unmet for empty input', () => {
    render(<PasswordChecklist password="" confirm="" />);
    expect(states()).toEqual([
      ['Must be at least 8 characters', 'false'],
      ['Must contain one special character', 'false'],
      ['Passwords match', 'false'],
    ]);
  });

  it('marks length, special character and match live', () => {
    const { rerender } = render(<PasswordChecklist password="abcdefgh" confirm="" />);
    expect(states().map(([, met]) => met)).toEqual(['true', 'false', 'false']);
    rerender(<PasswordChecklist password="abcdefg!" confirm="abcdefg" />);
    expect(states().map(([, met]) => met)).toEqual(['true', 'true', 'false']);
    rerender(<PasswordChecklist password="abcdefg!" confirm="abcdefg!" />);
    expect(states().map(([, met]) => met)).toEqual(['true', 'true', 'true']);
  });

  it('a short password with a special character meets only that rule', () => {
    render(<PasswordChecklist password="a!" confirm="a!" />);
    expect(states().map(([, met]) => met)).toEqual(['false', 'true', 'true']);
  });
});
