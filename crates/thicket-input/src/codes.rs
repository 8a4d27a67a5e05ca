//! The table macro every dialect crate uses for its `ErrorCode` enum.

/// Declares a dialect's error-code enum from a table of `Variant = "kebab-code", "message";`
/// rows, with `ALL`, `as_str`, `message`, `from_code`, `Display` (the code) and the
/// [`ErrorCode`](crate::ErrorCode) trait.
///
/// ```
/// thicket_input::error_codes! {
///     /// What went wrong.
///     pub enum DemoCode {
///         /// A tag was never closed.
///         EofInTag = "eof-in-tag", "end of input inside a tag";
///     }
/// }
/// assert_eq!(DemoCode::EofInTag.as_str(), "eof-in-tag");
/// assert_eq!(DemoCode::from_code("eof-in-tag"), Some(DemoCode::EofInTag));
/// assert_eq!(DemoCode::ALL.len(), 1);
/// assert_eq!(DemoCode::EofInTag.to_string(), "eof-in-tag");
/// ```
#[macro_export]
macro_rules! error_codes {
    (
        $(#[$enum_doc:meta])*
        pub enum $name:ident {
            $( $(#[$doc:meta])* $variant:ident = $code:literal, $message:literal; )*
        }
    ) => {
        $(#[$enum_doc])*
        #[non_exhaustive]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $( $(#[$doc])* $variant, )*
        }

        impl $name {
            /// Every code, in declaration order.
            pub const ALL: &'static [$name] = &[ $( $name::$variant, )* ];

            /// The stable kebab-case code.
            pub const fn as_str(self) -> &'static str {
                match self { $( $name::$variant => $code, )* }
            }

            /// A one-line description.
            pub const fn message(self) -> &'static str {
                match self { $( $name::$variant => $message, )* }
            }

            /// The code whose [`as_str`](Self::as_str) is `code`.
            pub fn from_code(code: &str) -> ::core::option::Option<$name> {
                match code { $( $code => ::core::option::Option::Some($name::$variant), )* _ => ::core::option::Option::None }
            }
        }

        impl $crate::ErrorCode for $name {
            fn as_str(self) -> &'static str {
                $name::as_str(self)
            }

            fn message(self) -> &'static str {
                $name::message(self)
            }

            fn from_code(code: &str) -> ::core::option::Option<$name> {
                $name::from_code(code)
            }
        }

        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}
