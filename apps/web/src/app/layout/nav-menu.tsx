import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Collapse from '@mui/material/Collapse';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { menuEntries, type MenuGroup, type MenuItem } from './menu-entries';

function Item({ item, nested }: { item: MenuItem; nested?: boolean }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const current = pathname === item.to;
  return (
    <ListItem disablePadding>
      <ListItemButton
        component={RouterLink}
        to={item.to}
        selected={current}
        aria-current={current ? 'page' : undefined}
        sx={nested ? { pl: 4 } : undefined}
      >
        <ListItemText primary={t(item.label)} />
      </ListItemButton>
    </ListItem>
  );
}

function Group({ group }: { group: MenuGroup }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const id = useId();
  // The toggle and its nested list share one <li>, so every <ul> holds only list items.
  return (
    <ListItem disablePadding sx={{ display: 'block' }}>
      <ListItemButton aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)}>
        <ListItemText primary={t(group.label)} />
        {open ? <ExpandLess aria-hidden /> : <ExpandMore aria-hidden />}
      </ListItemButton>
      <Collapse in={open} id={id} timeout="auto" unmountOnExit>
        <List disablePadding>
          {group.items.map((item) => (
            <Item key={item.to} item={item} nested />
          ))}
        </List>
      </Collapse>
    </ListItem>
  );
}

/** Navigation by role and permission; groups start collapsed. */
export function NavMenu({
  superAdmin,
  permissions,
}: {
  superAdmin: boolean;
  permissions: string[];
}) {
  const entries = menuEntries({ superAdmin, permissions });
  return (
    <List>
      {entries.map((entry) =>
        'items' in entry ? (
          <Group key={entry.label} group={entry} />
        ) : (
          <Item key={entry.to} item={entry} />
        ),
      )}
    </List>
  );
}
