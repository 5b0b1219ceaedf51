import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useTranslation } from 'react-i18next';
import { languages } from '../lib/i18n';

/** The open language menu; its own chunk, so sign-in does not load Menu, Popover and Modal. */
export default function LanguageMenuList({
  anchor,
  onClose,
}: {
  anchor: HTMLElement;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const current = i18n.resolvedLanguage ?? 'en';
  return (
    <Menu anchorEl={anchor} open onClose={onClose}>
      {languages.map((lng) => (
        <MenuItem
          key={lng}
          lang={lng}
          selected={lng === current}
          onClick={() => {
            void i18n.changeLanguage(lng);
            onClose();
          }}
        >
          {t(`language.${lng}`)}
        </MenuItem>
      ))}
    </Menu>
  );
}
