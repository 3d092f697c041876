//! A unit's scenario id (`"A1"`) as a name that is copied without
//! allocating: the engine lists units, names them in its events and
//! decisions and compares them many times a move, and a `String` copy each
//! time cost a malloc and a free. Shared text behind an `Arc`; it reads,
//! compares, hashes, prints and serializes exactly as the `String` it
//! replaces (saves, journals, scripts and log lines are unchanged).

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A unit's scenario id: cheap to clone, read as a `&str`.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UnitId(Arc<str>);

/// The other names a unit carries, its roster type and its company: shared
/// text like its id, so that copying a unit copies no text.
pub type UnitName = UnitId;

impl UnitId {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for UnitId {
    fn default() -> Self {
        UnitId(Arc::from(""))
    }
}

impl Deref for UnitId {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for UnitId {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for UnitId {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for UnitId {
    /// As a `String` prints: `"A1"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for UnitId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

impl From<&str> for UnitId {
    fn from(s: &str) -> Self {
        UnitId(Arc::from(s))
    }
}

impl From<String> for UnitId {
    fn from(s: String) -> Self {
        UnitId(Arc::from(s))
    }
}

impl From<&String> for UnitId {
    fn from(s: &String) -> Self {
        UnitId(Arc::from(s.as_str()))
    }
}

impl From<&UnitId> for UnitId {
    fn from(s: &UnitId) -> Self {
        s.clone()
    }
}

impl From<UnitId> for String {
    fn from(s: UnitId) -> Self {
        s.0.to_string()
    }
}

impl PartialEq<str> for UnitId {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for UnitId {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<String> for UnitId {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<UnitId> for str {
    fn eq(&self, other: &UnitId) -> bool {
        self == &*other.0
    }
}

impl PartialEq<UnitId> for &str {
    fn eq(&self, other: &UnitId) -> bool {
        *self == &*other.0
    }
}

impl PartialEq<UnitId> for String {
    fn eq(&self, other: &UnitId) -> bool {
        **self == *other.0
    }
}

impl Serialize for UnitId {
    /// As a plain string, like the `String` it replaces.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for UnitId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(UnitId::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_prints_and_serializes_as_its_text() {
        let id = UnitId::from("A1");
        assert_eq!(format!("{id:?}"), format!("{:?}", "A1".to_string()));
        assert_eq!(format!("{id}|{id:>4}|"), "A1|  A1|");
        assert_eq!(ron::to_string(&id).unwrap(), "\"A1\"");
        assert_eq!(ron::from_str::<UnitId>("\"A1\"").unwrap(), id);
        let text = String::from("A1");
        assert_eq!(id, "A1");
        assert_eq!("A1", id);
        assert_eq!(id, text);
        assert_eq!(text, id);
        // Ordered as the text: "A10" before "A2".
        let mut ids = vec![UnitId::from("A2"), UnitId::from("A10")];
        ids.sort();
        assert_eq!(ids, ["A10", "A2"]);
        let mut map = std::collections::BTreeMap::new();
        map.insert(id.clone(), 3);
        assert_eq!(map.get("A1"), Some(&3));
        assert_eq!(UnitId::default().as_str(), "");
    }
}
