import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** A dashboard page; its list comes in a later issue, so for now only the heading. */
export default function SectionPage({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <Typography component="h1" variant="h4">
      {t(title)}
    </Typography>
  );
}
