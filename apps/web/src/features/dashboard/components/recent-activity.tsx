import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { Dashboard } from '@tc/contract/dashboard';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Formatters } from '../format';

type Entry = Dashboard['recentActivity'][number];

const actions = new Set(['create', 'update', 'delete']);
const entities = new Set(['tenants', 'users', 'roles', 'permissions', 'projects']);

/** "Anna Admin created the role Editors", in the interface language. */
function useDescribe() {
  const { t } = useTranslation('dashboard');
  return (entry: Entry) => {
    // No actor: a super administrator (not a user of the tenant) or a user deleted since.
    const actor = entry.actor ?? t('activity.unknownActor');
    // The onboarding audits its milestones only (completed, skipped).
    if (entry.entity === 'onboarding') return t('activity.setup', { actor });
    const action = actions.has(entry.action) ? entry.action : 'other';
    const entity = entities.has(entry.entity) ? t(`entities.${entry.entity}`) : entry.entity;
    return t(entry.summary ? `activity.${action}Named` : `activity.${action}`, {
      actor,
      entity,
      name: entry.summary,
    });
  };
}

/** Who did what when: the newest audit entries of the tenant. */
export function RecentActivity(props: { entries: Entry[] | undefined; format: Formatters }) {
  const { t } = useTranslation('dashboard');
  const headingId = useId();
  const describe = useDescribe();
  const { entries, format } = props;
  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: 2 }}>
      <Typography id={headingId} component="h2" variant="h6" sx={{ mb: 1 }}>
        {t('activity.title')}
      </Typography>
      {entries === undefined ? (
        <Box>
          {[0, 1, 2].map((row) => (
            <Skeleton key={row} height={48} />
          ))}
        </Box>
      ) : entries.length === 0 ? (
        <Typography color="text.secondary">{t('activity.empty')}</Typography>
      ) : (
        <List dense disablePadding>
          {entries.map((entry) => (
            <ListItem key={entry.id} disableGutters divider>
              <ListItemText
                primary={describe(entry)}
                secondary={
                  <time dateTime={entry.at} title={format.dateTime(entry.at)}>
                    {format.relative(entry.at)}
                  </time>
                }
              />
            </ListItem>
          ))}
        </List>
      )}
    </Paper>
  );
}
