import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';

/**
 * One titled part of a settings-like page (the account page, the tenant's settings): a
 * second-level heading a screen reader can jump to, naming the region it opens.
 */
export function SectionCard(props: { title: string; intro?: ReactNode; children: ReactNode }) {
  const headingId = useId();
  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: 3 }}>
      <Stack spacing={2}>
        <div>
          <Typography id={headingId} component="h2" variant="h6">
            {props.title}
          </Typography>
          {props.intro ? (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              {props.intro}
            </Typography>
          ) : null}
        </div>
        {props.children}
      </Stack>
    </Paper>
  );
}
