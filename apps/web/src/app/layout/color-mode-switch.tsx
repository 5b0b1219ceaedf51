import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import { useColorScheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';

/** Dark Mode switch; MUI stores the choice in localStorage, the first visit follows the system. */
export function ColorModeSwitch() {
  const { t } = useTranslation();
  const { mode, systemMode, setMode } = useColorScheme();
  const dark = (mode === 'system' ? systemMode : mode) === 'dark';
  return (
    <FormControlLabel
      control={
        <Switch
          checked={dark}
          onChange={(event) => setMode(event.target.checked ? 'dark' : 'light')}
        />
      }
      label={t('layout.darkMode')}
    />
  );
}
